import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam, limitParam, positionCursorParam } from '@/lib/core/params';
import { getInspectionRun, inspectionItems } from '@/lib/gsc/inspection/data';
import type { GscInspectionRunPage } from '@/lib/gsc/inspection-schema';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string }> };

/** One run with a page of its inspections in the order made (`limit`, `cursor`: the last page's nextCursor). */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const { id, runId } = await params;
  const run = await getInspectionRun(auditIdParam(id), idParam(runId, 'URL inspection'));
  if (!run) throw new AppError('not_found', 'No such URL inspection');
  const search = new URL(request.url).searchParams;
  const limit = limitParam(search.get('limit'), 100, 1000);
  const cursor = positionCursorParam(search.get('cursor'));
  const page: GscInspectionRunPage = { ...run, ...(await inspectionItems(run.id, limit, cursor)) };
  return json(page);
});
