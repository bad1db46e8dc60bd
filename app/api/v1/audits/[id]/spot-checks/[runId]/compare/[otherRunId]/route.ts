import { auditIdParam, idParam, limitParam, positionCursorParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { compareSpotChecks } from '@/lib/spot-check/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string; otherRunId: string }> };

/** What changed from one run to another of the same audit: counts and a page of changed rows
 * (`limit`, `cursor`: the last page's nextCursor), both runs with their summaries. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const { id, runId, otherRunId } = await params;
  const search = new URL(request.url).searchParams;
  return json(
    await compareSpotChecks(
      auditIdParam(id),
      idParam(runId, 'spot-check'),
      idParam(otherRunId, 'spot-check'),
      {
        limit: limitParam(search.get('limit'), 100, 1000),
        cursor: positionCursorParam(search.get('cursor')),
      },
    ),
  );
});
