import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { listChanges } from '@/lib/sites/changes/data';
import { siteExists } from '@/lib/sites/data';
import { type SiteChangePage, ZChangeQuery } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** The site's change feed, newest first, with the counts per type under the same filter. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = idParam((await params).id, 'site');
  const query = ZChangeQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  if (!(await siteExists(id))) throw new AppError('not_found', 'No such site');
  return json((await listChanges(id, query)) satisfies Sendable<SiteChangePage>);
});
