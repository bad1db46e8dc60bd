// Decides what a user-supplied source URL is and where to look when a site names no sitemap.
// Pure: fetching the candidates is the caller's job.

export type SourceKind = 'site-root' | 'robots' | 'sitemap';

/** Conventional locations tried, in order, when neither the user nor robots.txt names a sitemap. */
const FALLBACK_PATHS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap.txt'];

/**
 * `https://example.com` or `https://example.com/` → site-root; a path ending in /robots.txt
 * (any case) → robots; anything else → sitemap. A query string makes a root URL a sitemap,
 * because `/?sitemap=…` style endpoints (WordPress plugins) serve sitemaps at the root path.
 * Throws TypeError for a string that is not a URL.
 */
export function classifySourceUrl(url: string): SourceKind {
  const parsed = new URL(url);
  const path = parsed.pathname;
  if ((path === '' || path === '/') && parsed.search === '') return 'site-root';
  if (path.toLowerCase().endsWith('/robots.txt')) return 'robots';
  return 'sitemap';
}

export function fallbackSitemapUrls(siteRoot: string): string[] {
  const origin = new URL(siteRoot).origin;
  return FALLBACK_PATHS.map((path) => new URL(path, origin).href);
}
