import { auditExists } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import { auditIdParam, jsonBody } from '@/lib/core/params';
import { listInspectionRuns } from '@/lib/gsc/inspection/data';
import { ZGscInspectionRequest } from '@/lib/gsc/inspection-schema';
import { startInspection } from '@/lib/gsc/inspection-service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Starts a URL Inspection run over a sample of declared entries: 202 with its id; 409 without a key. */
export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  const input = ZGscInspectionRequest.parse(await jsonBody(request));
  return json({ runId: await startInspection(id, input, actor.name) }, { status: 202 });
});

/** The audit's URL Inspection runs, newest first. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  if (!(await auditExists(id))) throw new AppError('not_found', 'No such audit');
  return json({ runs: await listInspectionRuns(id) });
});
