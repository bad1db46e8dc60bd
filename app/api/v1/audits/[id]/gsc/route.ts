import { auditIdParam } from '@/lib/core/params';
import { startGscImport } from '@/lib/gsc/service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Imports Search Console exports (multipart: CSV files and/or zips): 202 with the import's id; the
 * worker reads them (GET …/gsc/imports/{importId} follows it). */
export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  const importId = await startGscImport(request, id, actor.name);
  return json(
    { importId },
    { status: 202, headers: { location: `/api/v1/audits/${id}/gsc/imports/${importId}` } },
  );
});
