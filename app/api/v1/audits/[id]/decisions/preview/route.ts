import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import { type DecisionPreviewDto, ZDecisionPreviewQuery } from '@/lib/findings/schema';
import { previewDecision, reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

// Reviewer and above, as the decision it previews.
export const GET = guarded('reviewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const { decision, override, filterDecision, ...filter } = ZDecisionPreviewQuery.parse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  await reconciledAudit(id);
  const preview = await previewDecision(id, { ...filter, decision: filterDecision }, decision, override);
  return json(preview satisfies Sendable<DecisionPreviewDto>);
});
