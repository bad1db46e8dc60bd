import { startSiteRunFromRequest } from '@/lib/audit-runs/site-runs';
import type { Sendable } from '@/lib/client/api';
import { idParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import type { CreatedSiteRunDto } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Run again: a new audit repeating an audit's sources (202; 409 while a run of the site is going). */
export const POST = guarded('reviewer', async (request: Request, { params }: Context) => {
  const created = await startSiteRunFromRequest(request, idParam((await params).id, 'site'));
  return json(created satisfies Sendable<CreatedSiteRunDto>, {
    status: 202,
    headers: { location: `/api/v1/audits/${created.id}` },
  });
});
