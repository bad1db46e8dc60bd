import { auditIdParam, jsonBody } from '@/lib/core/params';
import { reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';
import { listSpotChecks } from '@/lib/spot-check/data';
import { ZSpotCheckRequest } from '@/lib/spot-check/schema';
import { startSpotCheck } from '@/lib/spot-check/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Starts a live spot-check of a sample, chosen rows or a filter's rows: 202 with the run's id. */
export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  const input = ZSpotCheckRequest.parse(await jsonBody(request));
  const runId = await startSpotCheck(id, input, { id: actor.id, name: actor.name });
  return json({ runId }, { status: 202 });
});

/** The audit's spot-check runs, newest first. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  await reconciledAudit(id);
  return json({ runs: await listSpotChecks(id) });
});
