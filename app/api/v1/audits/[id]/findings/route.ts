import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import type { FindingPage } from '@/lib/findings/schema';
import { ZFindingQuery } from '@/lib/findings/schema';
import { listFindings, reconciledAudit } from '@/lib/review/data';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZFindingQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  await reconciledAudit(id);
  return json((await listFindings(id, query)) satisfies Sendable<FindingPage>);
});
