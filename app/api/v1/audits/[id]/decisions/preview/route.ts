import type { Sendable } from '@/lib/api/client';
import { auditIdParam } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { previewDecision, reconciledAudit } from '@/lib/findings/data';
import { type DecisionPreviewDto, ZDecisionPreviewQuery } from '@/lib/findings/schema';

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
