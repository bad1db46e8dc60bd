import type { Sendable } from '@/lib/api/client';
import { auditIdParam, jsonBody } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { reconciledAudit } from '@/lib/findings/data';
import { decide } from '@/lib/findings/mutations';
import type { DecisionsRecordedDto } from '@/lib/findings/schema';
import { ZDecisionRequest } from '@/lib/findings/schema';

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
