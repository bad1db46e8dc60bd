import { auditIdParam, jsonBody } from '@/lib/core/params';
import { ZLintPage, ZLintRequest } from '@/lib/hygiene/audit/schema';
import { lintReport, startLint } from '@/lib/hygiene/audit/service';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** The audit's sitemap lint: the latest run's state, the rules that fired and the files ranked by dirt. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = new URL(request.url).searchParams;
  const page = ZLintPage.parse({
    limit: query.get('limit') ?? undefined,
    offset: query.get('offset') ?? undefined,
  });
  return json(await lintReport(id, page));
});

/** Grades the audit's sitemap files again (an older audit, or after a fix): 202 with the run's id. */
export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  // No body is a plain "re-check".
  const empty = request.body === null || request.headers.get('content-length') === '0';
  const input = empty ? {} : ZLintRequest.parse(await jsonBody(request));
  const runId = await startLint(id, actor.name, input.siteUrl ?? null);
  return json({ runId }, { status: 202 });
});
