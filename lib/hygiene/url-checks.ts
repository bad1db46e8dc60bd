// Pure judgements on one parsed URL: what kind of page it looks like, and which section and
// trailing-slash form it has. They run once per entry, so they read URL fields and never re-parse.

const SEARCH_SEGMENT = /^(search|suche|recherche|buscar|busca|zoeken|ricerca|szukaj)$/i;
const SEARCH_PARAMS = ['q', 's', 'query', 'search', 'keyword', 'keywords', 'searchterm'];
const PAGE_SEGMENT = /\/(page|seite|pagina|p)\/\d+\/?$/i;
const PAGE_PARAMS = ['page', 'pg', 'paged', 'pagenum', 'page_number'];

/** Internal site search: a /search path segment, or a search parameter (WordPress `?s=`). */
export function isSearchUrl(url: URL): boolean {
  if (url.pathname.split('/').some((segment) => SEARCH_SEGMENT.test(segment))) return true;
  if (url.search === '') return false;
  return SEARCH_PARAMS.some((name) => url.searchParams.has(name));
}

/** Page 2+ of a listing: /page/3 (WordPress) or ?page=3 (page 1 is the listing itself). */
export function isPaginationUrl(url: URL): boolean {
  if (PAGE_SEGMENT.test(url.pathname)) return true;
  if (url.search === '') return false;
  return PAGE_PARAMS.some((name) => {
    const value = url.searchParams.get(name);
    return value !== null && /^\d+$/.test(value) && value !== '1';
  });
}

export interface SlashForm {
  /** Host plus first path segment of a page below it; '' marks a top-level page (its section is the root). */
  section: string;
  trailingSlash: boolean;
}

/**
 * The section and trailing-slash form of a page URL, or null for those that have no choice to make:
 * the root, and files (a last segment with an extension, like /feed.xml).
 */
export function slashForm(url: URL): SlashForm | null {
  const path = url.pathname;
  if (path === '/' || path === '') return null;
  const trailingSlash = path.endsWith('/');
  const trimmed = trailingSlash ? path.slice(1, -1) : path.slice(1);
  const segments = trimmed.split('/');
  const last = segments[segments.length - 1] ?? '';
  if (!trailingSlash && last.includes('.')) return null;
  const section = segments.length > 1 ? `${url.host}/${segments[0]}` : `${url.host}/`;
  return { section, trailingSlash };
}
