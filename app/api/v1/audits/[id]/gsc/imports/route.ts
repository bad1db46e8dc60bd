import { auditExists } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import { auditIdParam } from '@/lib/core/params';
import { listGscImports } from '@/lib/gsc/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** The audit's Search Console imports, newest first, with what each covered or why it failed. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  if (!(await auditExists(id))) throw new AppError('not_found', 'No such audit');
  return json({ imports: await listGscImports(id) });
});
