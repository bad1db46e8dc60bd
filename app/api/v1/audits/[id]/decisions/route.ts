import type { Sendable } from '@/lib/client/api';
import { auditIdParam, jsonBody } from '@/lib/core/params';
import type { DecisionsRecordedDto } from '@/lib/findings/schema';
import { ZDecisionRequest } from '@/lib/findings/schema';
import { reconciledAudit } from '@/lib/review/data';
import { decide } from '@/lib/review/mutations';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const POST = guarded('reviewer', async (request: Request, { params }: Context, actor) => {
  const id = auditIdParam((await params).id);
  const input = ZDecisionRequest.parse(await jsonBody(request));
  const change = { decision: input.decision, by: actor.name, note: input.note || null };
  await reconciledAudit(id);
  const target = input.ids
    ? { ids: input.ids }
    : { filter: input.filter as NonNullable<typeof input.filter>, override: input.override };
  return json((await decide(id, target, change)) satisfies Sendable<DecisionsRecordedDto>);
});
