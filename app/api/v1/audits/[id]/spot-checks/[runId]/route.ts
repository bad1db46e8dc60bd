import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam, limitParam, positionCursorParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { getSpotCheck, spotCheckItems } from '@/lib/spot-check/data';
import type { SpotCheckRunPage } from '@/lib/spot-check/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string }> };

/** One run with a page of its items, in finding-id order (`limit`, `cursor`: the last page's nextCursor). */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const { id, runId } = await params;
  const auditId = auditIdParam(id);
  const run = await getSpotCheck(auditId, idParam(runId, 'spot-check'));
  if (!run) throw new AppError('not_found', 'No such spot-check');
  const search = new URL(request.url).searchParams;
  const limit = limitParam(search.get('limit'), 100, 1000);
  const cursor = positionCursorParam(search.get('cursor'));
  const page: SpotCheckRunPage = { ...run, ...(await spotCheckItems(run.id, limit, cursor)) };
  return json(page);
});
