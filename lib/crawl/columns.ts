// Decides which CSV column feeds which CrawlRow field: Screaming Frog headers across versions, the
// obvious headers of other exports (Ahrefs, hand-made lists), and the user's own column map on top.
import { type CrawlField, CrawlImportError } from './types';

export type ColumnMap = Partial<Record<CrawlField, string>>;

/** Fields where every matching column counts (any one saying noindex is enough). */
type MultiField = 'noindex' | 'blockedByRobots' | 'canonicalised';
type SingleField = Exclude<CrawlField, MultiField>;

export interface ColumnPlan {
  /** Column index per field, -1 when the file has no such column. */
  single: Record<SingleField, number>;
  multi: Record<MultiField, number[]>;
  headerLength: number;
  mapped: Record<string, string>;
  unmapped: string[];
}

type AliasTable = Record<CrawlField, string[]>;

// Headers are compared after normalizeHeader(): lowercase, and runs of space, `_` or `-` become one space.
const SCREAMING_FROG: AliasTable = {
  url: ['address'],
  status: ['status code'],
  canonical: ['canonical link element 1'],
  indexable: ['indexability'],
  noindex: ['indexability status', 'meta robots 1', 'x robots tag 1'],
  blockedByRobots: ['status', 'indexability status'],
  canonicalised: ['indexability status'],
  crawledAt: ['crawl timestamp'],
  depth: ['crawl depth'],
  redirectUrl: ['redirect url', 'redirect uri'],
  contentType: ['content type', 'content'],
  // Unique Inlinks counts the pages that link (what tells an orphan); Inlinks every link.
  inlinks: ['unique inlinks', 'inlinks'],
};

const GENERIC: AliasTable = {
  url: ['url', 'address', 'page url', 'page', 'loc', 'uri'],
  status: ['status code', 'http status code', 'http status', 'response code', 'status'],
  canonical: ['canonical url', 'canonical', 'canonical link element 1'],
  indexable: ['indexable', 'is indexable', 'is indexable page', 'indexability'],
  noindex: ['noindex', 'meta robots', 'meta robots 1', 'x robots tag', 'x robots tag 1'],
  blockedByRobots: ['blocked by robots', 'blocked by robots.txt'],
  canonicalised: ['canonicalised', 'canonicalized', 'is canonicalised'],
  crawledAt: ['crawled at', 'crawl timestamp', 'crawl time', 'crawl date', 'last crawled'],
  depth: ['depth', 'crawl depth'],
  redirectUrl: ['redirect url', 'redirect uri', 'redirect target', 'redirects to'],
  contentType: ['content type'],
  inlinks: ['unique inlinks', 'inlinks', 'inlink count', 'internal inlinks'],
};

const MULTI_FIELDS: readonly MultiField[] = ['noindex', 'blockedByRobots', 'canonicalised'];

export function normalizeHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/** Screaming Frog internal/links exports: Address plus one of its status columns. */
export function looksLikeScreamingFrog(headers: string[]): boolean {
  const names = new Set(headers.map(normalizeHeader));
  return names.has('address') && (names.has('status code') || names.has('indexability status'));
}

/** The page list to export instead of a file that is not one. */
const PAGE_EXPORT =
  'Export the crawled pages instead: Screaming Frog Internal > All (internal_all.csv), or a JSON Lines crawl export.';

/** Source and destination columns: one row per link (Screaming Frog All Inlinks / All Outlinks, other
 * crawlers' link exports), not one per page. Its destinations are every URL the pages link to — YouTube,
 * maps, social profiles — so no column map can make it a page list. */
function isEdgeList(names: string[]): boolean {
  const has = (...options: string[]) => options.some((name) => names.includes(name));
  return (
    has('source', 'from', 'source url', 'from url') &&
    has('destination', 'to', 'destination url', 'target url')
  );
}

export function planColumns(
  headers: string[],
  isScreamingFrog: boolean,
  columnMap: ColumnMap = {},
): ColumnPlan {
  const names = headers.map(normalizeHeader);
  if (isEdgeList(names)) {
    throw new CrawlImportError(
      'edge_list',
      `This is a link export (one row per link, with Source and Destination columns, like Screaming Frog's All Inlinks), not a list of crawled pages: its destinations include every external link. ${PAGE_EXPORT}`,
    );
  }
  const aliases = isScreamingFrog ? SCREAMING_FROG : GENERIC;
  const chosen = new Map<CrawlField, number[]>();
  for (const field of Object.keys(aliases) as CrawlField[]) {
    const wanted = columnMap[field];
    if (wanted !== undefined) {
      chosen.set(field, [findMappedColumn(headers, names, field, wanted)]);
      continue;
    }
    const found = aliases[field].map((alias) => names.indexOf(alias)).filter((index) => index !== -1);
    const isMulti = (MULTI_FIELDS as readonly string[]).includes(field);
    chosen.set(field, isMulti ? [...new Set(found)] : found.slice(0, 1));
  }
  // A Screaming Frog export without the crawl's answers (its Links report: link counts per URL) would make
  // every declared page look unanswered ("no response").
  if (isScreamingFrog && (chosen.get('status')?.length ?? 0) === 0) {
    throw new CrawlImportError(
      'missing_status',
      `This Screaming Frog export has no Status Code column (it looks like the Links report, link counts per URL): without the status of each page nothing can be judged. ${PAGE_EXPORT}`,
    );
  }
  const urlColumn = chosen.get('url')?.[0];
  if (urlColumn === undefined) {
    throw new CrawlImportError(
      'unmapped_url',
      `No URL column found. Choose which column holds the page URL; the file has: ${listHeaders(headers)}.`,
    );
  }
  return describePlan(headers, chosen);
}

function findMappedColumn(headers: string[], names: string[], field: CrawlField, wanted: string): number {
  const exact = headers.indexOf(wanted);
  const index = exact !== -1 ? exact : names.indexOf(normalizeHeader(wanted));
  if (index !== -1) return index;
  throw new CrawlImportError(
    field === 'url' ? 'unmapped_url' : 'unknown_column',
    `The column "${wanted}" chosen for ${field} is not in the file; the file has: ${listHeaders(headers)}.`,
  );
}

function describePlan(headers: string[], chosen: Map<CrawlField, number[]>): ColumnPlan {
  const column = (field: SingleField) => chosen.get(field)?.[0] ?? -1;
  const mapped: Record<string, string> = {};
  const used = new Set<number>();
  for (const [field, indexes] of chosen) {
    if (indexes.length === 0) continue;
    mapped[field] = indexes.map((index) => headers[index] ?? '').join(' + ');
    for (const index of indexes) used.add(index);
  }
  return {
    single: {
      url: column('url'),
      status: column('status'),
      canonical: column('canonical'),
      indexable: column('indexable'),
      crawledAt: column('crawledAt'),
      depth: column('depth'),
      redirectUrl: column('redirectUrl'),
      contentType: column('contentType'),
      inlinks: column('inlinks'),
    },
    multi: {
      noindex: chosen.get('noindex') ?? [],
      blockedByRobots: chosen.get('blockedByRobots') ?? [],
      canonicalised: chosen.get('canonicalised') ?? [],
    },
    headerLength: headers.length,
    mapped,
    unmapped: headers.filter((_, index) => !used.has(index)),
  };
}

function listHeaders(headers: string[]): string {
  const shown = headers
    .slice(0, 40)
    .map((header) => `"${header.length > 60 ? `${header.slice(0, 57)}...` : header}"`);
  return headers.length > 40 ? `${shown.join(', ')} and ${headers.length - 40} more` : shown.join(', ');
}
