import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { auditDiff } from '@/lib/sites/diff/data';
import { type AuditDiffDto, ZDiffQuery } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; otherId: string }> };

/** What changed from audit `id` to audit `otherId` of the same site: counts per type and a page of rows. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const { id, otherId } = await params;
  const from = auditIdParam(id);
  const to = auditIdParam(otherId);
  const query = ZDiffQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json((await auditDiff(from, to, query)) satisfies Sendable<AuditDiffDto>);
});
