// How many sitemap files the audit page reads a page (GET …/sitemaps?limit=): a tree of 5,000 files builds
// and renders at once; the next page comes on request.
export const SITEMAP_PAGE_SIZE = 5_000;
