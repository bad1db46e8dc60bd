import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { getSpotCheck } from '@/lib/spot-check/data';
import { cancelSpotCheck } from '@/lib/spot-check/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string }> };

/** Stops a queued or running spot-check (its worker stops within one heartbeat); answers with the run. */
export const POST = guarded('reviewer', async (_request: Request, { params }: Context, actor) => {
  const { id, runId } = await params;
  const auditId = auditIdParam(id);
  const runIdValue = idParam(runId, 'spot-check');
  if (!(await getSpotCheck(auditId, runIdValue))) throw new AppError('not_found', 'No such spot-check');
  await cancelSpotCheck(runIdValue, actor.name);
  return json(await getSpotCheck(auditId, runIdValue));
});
