import { AppError } from '@/lib/core/errors';
import { auditIdParam, idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { ZSpotCheckRetry } from '@/lib/spot-check/schema';
import { retrySpotCheck } from '@/lib/spot-check/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; runId: string }> };

/** The body is optional (`curl -X POST` with none repeats the whole run): an empty one reads as `{}`. */
async function optionalJsonBody(request: Request): Promise<unknown> {
  try {
    return await jsonBody(request);
  } catch (error) {
    if (
      error instanceof AppError &&
      error.code === 'bad_request' &&
      /^The body is empty/.test(error.message)
    ) {
      return {};
    }
    throw error;
  }
}

/** Starts a new run repeating an ended one (or only its errors, `{ "only": "errors" }`): 202 with its id. */
export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const { id, runId } = await params;
  const auditId = auditIdParam(id);
  const sourceId = idParam(runId, 'spot-check');
  const options = ZSpotCheckRetry.parse(await optionalJsonBody(request));
  return json(
    { runId: await retrySpotCheck(auditId, sourceId, options, { id: actor.id, name: actor.name }) },
    { status: 202 },
  );
});
