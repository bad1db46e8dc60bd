import { auditExists, listSitemapFiles } from '@/lib/audits/data';
import type { SitemapFilePage } from '@/lib/audits/schema';
import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { auditIdParam, limitParam, positionCursorParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = new URL(request.url).searchParams;
  const limit = limitParam(query.get('limit'), 10_000, 10_000);
  const cursor = positionCursorParam(query.get('cursor'));
  if (!(await auditExists(id))) throw new AppError('not_found', 'No such audit');
  return json((await listSitemapFiles(id, limit, cursor)) satisfies Sendable<SitemapFilePage>);
});
