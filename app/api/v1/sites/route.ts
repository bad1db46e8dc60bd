import type { Sendable } from '@/lib/client/api';
import { guarded, json } from '@/lib/server/respond';
import { listSites } from '@/lib/sites/data';
import { type SitePage, ZSiteListQuery } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

export const GET = guarded('viewer', async (request: Request) => {
  const query = ZSiteListQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json((await listSites(query)) satisfies Sendable<SitePage>);
});
