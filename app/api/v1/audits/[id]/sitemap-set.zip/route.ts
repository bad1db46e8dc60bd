import { auditIdParam } from '@/lib/core/params';
import { guarded } from '@/lib/server/respond';
import { ZSitemapSetQuery } from '@/lib/sitemap-set/schema';
import { sitemapSetZip } from '@/lib/sitemap-set/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** The corrected sitemap set as a zip, streamed while it is written. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZSitemapSetQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { body, name } = await sitemapSetZip(id, query);
  return new Response(body, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    },
  });
});
