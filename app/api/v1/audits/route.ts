import { createAuditFromRequest } from '@/lib/audit-runs/service';
import { listAudits } from '@/lib/audits/data';
import { type AuditPage, type CreatedAuditDto, ZAuditListQuery } from '@/lib/audits/schema';
import type { Sendable } from '@/lib/client/api';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

export const GET = guarded('viewer', async (request: Request) => {
  const query = ZAuditListQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json((await listAudits(query)) satisfies Sendable<AuditPage>);
});

export const POST = guarded('reviewer', async (request: Request) => {
  const created = await createAuditFromRequest(request);
  return json(created satisfies Sendable<CreatedAuditDto>, {
    status: 202,
    headers: { location: `/api/v1/audits/${created.id}` },
  });
});
