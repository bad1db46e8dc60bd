import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import { type ReasonCountsDto, ZReasonCountsQuery } from '@/lib/findings/schema';
import { reasonCounts, reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZReasonCountsQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  await reconciledAudit(id);
  return json((await reasonCounts(id, query)) satisfies Sendable<ReasonCountsDto>);
});
