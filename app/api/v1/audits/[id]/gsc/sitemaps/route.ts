import { auditIdParam } from '@/lib/core/params';
import { sitemapGaps } from '@/lib/gsc/gaps';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Search Console's gap per sitemap file and the property's totals: `{ hasData, sitemaps,
 * property, sitemapReportOn }`; `sitemaps` is the array. */
export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  return json(await sitemapGaps(id));
});
