import type { Sendable } from '@/lib/api/client';
import { cursorParam, limitParam } from '@/lib/api/params';
import { guarded, json } from '@/lib/api/respond';
import { listAudits } from '@/lib/audits/data';
import type { AuditPage, CreatedAuditDto } from '@/lib/audits/schema';
import { createAuditFromRequest } from '@/lib/audits/service';

export const dynamic = 'force-dynamic';

export const GET = guarded('viewer', async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const page = await listAudits(limitParam(params.get('limit'), 50, 200), cursorParam(params.get('cursor')));
  return json(page satisfies Sendable<AuditPage>);
});

export const POST = guarded('reviewer', async (request: Request) => {
  const created = await createAuditFromRequest(request);
  return json(created satisfies Sendable<CreatedAuditDto>, {
    status: 202,
    headers: { location: `/api/v1/audits/${created.id}` },
  });
});
