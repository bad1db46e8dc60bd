// The corrected sitemap set in the browser: its summary (one hook) and the zip's address.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/client/api';
import { findingKeys } from '@/lib/review/hooks';
import type { SetLayout, SitemapSetSummaryDto } from './schema';

export interface SetOptions {
  /** input: each file as read; sections: regrouped (gzip and maxUrls only apply there). */
  layout: SetLayout;
  gzip: boolean;
  maxUrls: number;
  /** Empty: the site's origin. */
  base: string;
}

const base = (auditId: string) => `/api/v1/audits/${encodeURIComponent(auditId)}`;

export function setSearch(options: SetOptions): string {
  const params = new URLSearchParams({ layout: options.layout });
  if (options.layout === 'sections') {
    params.set('gzip', options.gzip ? '1' : '0');
    params.set('maxUrls', String(options.maxUrls));
  }
  if (options.base) params.set('base', options.base);
  return params.toString();
}

export function sitemapSetZipHref(auditId: string, options: SetOptions): string {
  return `${base(auditId)}/sitemap-set.zip?${setSearch(options)}`;
}

/** The before/after summary. Keyed under the findings' counts (findingKeys.counts),
 * which every decision invalidates: the summary follows the review without a hook of its own for that. */
export function useSitemapSetSummary(auditId: string, options: SetOptions, { enabled = true } = {}) {
  return useQuery({
    queryKey: [...findingKeys.counts(auditId), 'sitemap-set', options] as const,
    queryFn: ({ signal }) =>
      apiFetch<SitemapSetSummaryDto>(`${base(auditId)}/sitemap-set?${setSearch(options)}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
