import { AppError } from '@/lib/api/errors';
import { auditIdParam } from '@/lib/api/params';
import { json, route } from '@/lib/api/respond';
import { auditExists, listSitemapFiles } from '@/lib/audits/data';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = route(async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  if (!(await auditExists(id))) throw new AppError('not_found', 'No such audit');
  return json({ items: await listSitemapFiles(id) });
});
