import type { Sendable } from '@/lib/client/api';
import { auditIdParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { type SitemapSetSummaryDto, ZSitemapSetQuery } from '@/lib/sitemap-set/schema';
import { sitemapSetSummary } from '@/lib/sitemap-set/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** The corrected sitemap set's before/after summary, counted without building it. */
export const GET = guarded('viewer', async (request: Request, { params }: Context) => {
  const id = auditIdParam((await params).id);
  const query = ZSitemapSetQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json((await sitemapSetSummary(id, query)) satisfies Sendable<SitemapSetSummaryDto>);
});
