import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam } from '@/lib/core/params';
import { getInspectionRun } from '@/lib/gsc/inspection/data';
import { cancelInspection } from '@/lib/gsc/inspection-service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string }> };

/** Stops a queued, running or waiting URL Inspection run; answers with the run. */
export const POST = guarded('reviewer', async (_request: Request, { params }: Context, actor) => {
  const { id, runId } = await params;
  const auditId = auditIdParam(id);
  const runIdValue = idParam(runId, 'URL inspection');
  if (!(await getInspectionRun(auditId, runIdValue)))
    throw new AppError('not_found', 'No such URL inspection');
  await cancelInspection(runIdValue, actor.name);
  return json(await getInspectionRun(auditId, runIdValue));
});
