import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam } from '@/lib/core/params';
import { getGscImport } from '@/lib/gsc/data';
import { removeGscImport } from '@/lib/gsc/service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; importId: string }> };

/** One import: its status and progress while it runs, then what it covered or its problems. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const { id, importId } = await params;
  const found = await getGscImport(auditIdParam(id), idParam(importId, 'Search Console import'));
  if (!found) throw new AppError('not_found', 'No such Search Console import');
  return json(found);
});

/** Removes one import and everything it stored (admin): 204. */
export const DELETE = guarded('admin', async (_request: Request, { params }: Context) => {
  const { id, importId } = await params;
  await removeGscImport(auditIdParam(id), idParam(importId, 'Search Console import'));
  return new Response(null, { status: 204 });
});
