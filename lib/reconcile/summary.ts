// Turns the reconcile's raw facts into the audit's sanity warnings and chart data (pure).

export interface ReconcileFacts {
  declared: number;
  crawled: number;
  matched: number;
  latestCrawl: Date | null;
  newestLastmod: Date | null;
  hostsNotCrawled: string[];
}

export interface Warning {
  code: string;
  message: string;
  /** How many URLs the warning is about, and the first of them (up to 10), where it is about URLs. */
  count?: number;
  examples?: string[];
}

export const PRUNE_SHARE_LIMIT = 0.2;

/** Under this share of the declared sections (or URLs) reached, the crawl does not match the sitemap. */
export const CRAWL_MATCH_MIN = 0.2;

/** How much of what the sitemap declares the crawl reached: sections (host + first directory), hosts and
 * URLs as declared (another form of a URL, www or not, https or not, is no proof the declared one
 * exists: a crawl that found most URLs only so did not crawl the site the sitemap lists either). */
export interface CrawlMatch {
  sections: number;
  sectionsReached: number;
  hosts: number;
  hostsReached: number;
  declared: number;
  urlsReached: number;
  crawled: number;
  /** Crawled keys the sitemap does not declare. */
  undeclared: number;
  mismatch: boolean;
}

/** A crawl that reached none of the declared hosts, or under 20 % of the declared sections, is of another
 * site or of another version of it (a crawl of the old site beside the rebuilt site's sitemap). So is one
 * mostly of URLs the sitemap does not list that reached under 20 % of those it does (a rebuilt site whose
 * pages are all at the top level, where sections cannot tell). What such a crawl did not reach says
 * nothing about the sitemap. A small crawl of the sitemap's own URLs is not a mismatch (section_not_crawled
 * and prune_share_high speak for it), nor are a handful of URLs, and an empty crawl or sitemap is not
 * judged here. */
export function isCrawlMismatch(m: Omit<CrawlMatch, 'mismatch'>): boolean {
  if (m.crawled === 0 || m.sections === 0 || m.declared === 0) return false;
  return (
    m.hostsReached === 0 ||
    m.sectionsReached / m.sections < CRAWL_MATCH_MIN ||
    (m.urlsReached / m.declared < CRAWL_MATCH_MIN &&
      m.undeclared > m.urlsReached &&
      Math.min(m.declared, m.undeclared) >= URL_SHARE_MIN_URLS)
  );
}

/** A share of URLs says something only over this many URLs on each side (3 declared URLs beside a 1-page
 * crawl is a test, not a site). */
export const URL_SHARE_MIN_URLS = 10;

/** The prominent warning of a crawl that does not match the sitemap, with what it held. */
export function crawlMismatchWarning(m: CrawlMatch, held: number): Warning | null {
  if (!m.mismatch) return null;
  const share = (part: number, whole: number, noun: string) =>
    `reached ${part.toLocaleString('en-US')} of the sitemap's ${urls(whole, noun)} (${pct(part / whole)}, under ${pct(CRAWL_MATCH_MIN)})`;
  const reached =
    m.hostsReached === 0
      ? m.hosts === 1
        ? "never reached the sitemap's host"
        : `reached none of the sitemap's ${m.hosts.toLocaleString('en-US')} hosts`
      : m.sectionsReached / m.sections < CRAWL_MATCH_MIN
        ? share(m.sectionsReached, m.sections, 'section')
        : share(m.urlsReached, m.declared, 'URL');
  return {
    code: 'crawl_mismatch',
    message: `The crawl ${reached}: is it a crawl of another site, of an older version of this one, or one stopped early? ${
      held > 0
        ? `The ${urls(held, 'declared URL')} it never reached ${held === 1 ? 'is' : 'are'} held, not pruned.`
        : 'Nothing it did not reach is pruned.'
    } Crawl the site the sitemap describes (its current version), then reconcile again; until then, check the Add list too: it comes from that crawl.`,
    count: held,
  };
}

/** The audit warning for declared pages held as canonical_pattern: the largest patterns, each with its
 * count and one of its pages. */
export function canonicalPatternWarning(
  patterns: { target: string; n: number; examples: string[] }[],
  held: number,
): Warning | null {
  if (held === 0 || patterns.length === 0) return null;
  const top = patterns[0] as { target: string; n: number };
  return {
    code: 'canonical_pattern',
    message: `${urls(held, 'declared page')} ${held === 1 ? 'names' : 'name'} a canonical shared by pages that are not copies of it (the largest: ${urls(top.n, 'page')} → ${top.target}). That is usually a template bug (a single-page app or a theme writing one canonical for every page), not pages to remove: fix the canonical tags so each page names itself, then crawl again.`,
    count: held,
    examples: patterns.map(
      (p) =>
        `${p.target} ← ${urls(p.n, 'page')}${p.examples.length > 0 ? ` (e.g. ${p.examples.slice(0, 2).join(', ')})` : ''}`,
    ),
  };
}

function pct(n: number): string {
  return `${Math.round(n * 1000) / 10}%`;
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Signs that the crawl cannot be trusted to judge the sitemap (stale, partial, or the wrong export). */
export function sanityWarnings(
  facts: ReconcileFacts,
  pruneTotal: number,
  crawlTime: Date | null,
  heldRecent = 0,
): Warning[] {
  const warnings: Warning[] = [];
  if (facts.declared > 0 && facts.crawled > 0 && facts.matched === 0) {
    warnings.push({
      code: 'no_overlap',
      message: `None of the ${facts.declared.toLocaleString('en-US')} declared URLs appears in the crawl: is this the right crawl export (and the right normalization)?`,
    });
  }
  if (facts.declared > 0 && pruneTotal / facts.declared > PRUNE_SHARE_LIMIT) {
    warnings.push({
      code: 'prune_share_high',
      message: `The prune list holds ${pct(pruneTotal / facts.declared)} of the declared URLs (over ${pct(PRUNE_SHARE_LIMIT)}): the crawl may be stale or partial — check before pruning`,
    });
  }
  if (crawlTime && facts.newestLastmod && facts.newestLastmod > crawlTime) {
    warnings.push({
      code: 'crawl_older_than_lastmod',
      message: `The crawl (${day(crawlTime)}) is older than the newest lastmod in the sitemap (${day(facts.newestLastmod)}): ${
        heldRecent > 0
          ? `${urls(heldRecent, 'recently changed page')} the crawl did not reach ${heldRecent === 1 ? 'is' : 'are'} held, not judged`
          : 'the crawl has a row for every page changed since, so none is held'
      }`,
    });
  }
  if (facts.hostsNotCrawled.length > 0 && facts.crawled > 0) {
    const shown = facts.hostsNotCrawled.slice(0, 10).join(', ');
    const more = facts.hostsNotCrawled.length > 10 ? ` and ${facts.hostsNotCrawled.length - 10} more` : '';
    warnings.push({
      code: 'hosts_not_crawled',
      message: `The sitemap lists hosts the crawl never visited: ${shown}${more}`,
    });
  }
  return warnings;
}

export interface FileReasonRow {
  fileId: number | null;
  reason: string;
  n: number;
}

export interface FileInfo {
  id: number;
  url: string | null;
  uploadName: string | null;
}

export interface FileReasons {
  fileId: number | null;
  url: string | null;
  uploadName: string | null;
  byReason: Record<string, number>;
}

/** Reasons per sitemap file, largest first; files past `top` are folded into one "other files" item. */
export function reasonsPerFile(rows: FileReasonRow[], files: FileInfo[], top = 50): FileReasons[] {
  const byFile = new Map<number | null, Record<string, number>>();
  for (const row of rows) {
    const reasons = byFile.get(row.fileId) ?? {};
    reasons[row.reason] = (reasons[row.reason] ?? 0) + row.n;
    byFile.set(row.fileId, reasons);
  }
  const info = new Map(files.map((f) => [f.id, f]));
  const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const sorted = [...byFile.entries()].sort((a, b) => total(b[1]) - total(a[1]) || (a[0] ?? 0) - (b[0] ?? 0));
  const items: FileReasons[] = sorted.slice(0, top).map(([fileId, byReason]) => ({
    fileId,
    url: fileId === null ? null : (info.get(fileId)?.url ?? null),
    uploadName: fileId === null ? null : (info.get(fileId)?.uploadName ?? null),
    byReason,
  }));
  const rest = sorted.slice(top);
  if (rest.length > 0) {
    const byReason: Record<string, number> = {};
    for (const [, reasons] of rest)
      for (const [r, n] of Object.entries(reasons)) byReason[r] = (byReason[r] ?? 0) + n;
    items.push({ fileId: null, url: null, uploadName: `other files (${rest.length})`, byReason });
  }
  return items;
}

const SIGNAL_MESSAGES: Record<string, (n: number) => string> = {
  redirect_canonical_conflict: (n) =>
    `${urls(n, 'declared URL')} ${n === 1 ? 'redirects to a page whose canonical points back to it' : 'redirect to a page whose canonical points back to them'}: the redirects and the canonicals contradict each other (for example www → apex redirects with apex → www canonicals). Decide which host is canonical before pruning or adding.`,
  variant_canonicalised: (n) =>
    `${urls(n, 'declared URL')} ${n === 1 ? 'was' : 'were'} crawled only in another form (url_variant) whose canonical is yet another URL: that form is no replacement — check which URL the site means before changing the sitemap.`,
  canonical_chain: (n) =>
    `${urls(n, 'declared URL')} ${n === 1 ? 'names' : 'name'} a canonical that itself redirects or does not answer 200: search engines may ignore such canonicals.`,
};

/** "1 declared URL", "2 declared URLs". */
function urls(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** The warnings for signals SEOs look for: URLs in several sitemap files, redirect/canonical conflicts and
 * canonical chains, each with its count and up to 10 example URLs. */
export function signalWarnings(
  signals: { signal: string; n: number; examples: string[] }[],
  multiFile: { n: number; examples: { url: string; fileIds: number[] }[] },
  files: FileInfo[],
): Warning[] {
  const warnings: Warning[] = [];
  if (multiFile.n > 0) {
    const label = new Map(files.map((f) => [f.id, f.url ?? f.uploadName ?? `file #${f.id}`]));
    warnings.push({
      code: 'multi_file',
      message: `${urls(multiFile.n, 'URL')} ${multiFile.n === 1 ? 'is' : 'are'} declared in more than one sitemap file: keep each URL in one file, so a removal is applied everywhere at once.`,
      count: multiFile.n,
      examples: multiFile.examples.map(
        (e) => `${e.url} (in ${e.fileIds.map((id) => label.get(id) ?? `file #${id}`).join(', ')})`,
      ),
    });
  }
  for (const { signal, n, examples } of signals) {
    const message = SIGNAL_MESSAGES[signal];
    if (!message) continue; // multi_file is counted over every declared URL above
    warnings.push({ code: signal, message: message(n), count: n, examples });
  }
  return warnings;
}
