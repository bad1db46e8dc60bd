// The built-in crawl's words: its settings, its answers by status, where a limit cut it and why it stopped.
// Pure, so the crawl tab and the progress panel say the same and the wording is tested without a browser.
import { formatCount } from '@/lib/core/format';
import { cutTotal, isCut } from '@/lib/crawler/issues';
import type { CrawlerSettings, CrawlProgress, CutReason, SectionCoverage } from '@/lib/crawler/types';

/** What cut a section, as the end of "cut by …". */
export const CUT_REASON_WORDS: Record<CutReason, string> = {
  max_pages: 'the page limit',
  max_depth: 'the depth limit',
  pattern_budget: 'a repeating URL pattern',
  query_variants: 'too many query strings',
  host_refused: 'the host refusing requests',
  failing: 'failing requests',
  cancelled: 'the crawl ending early',
};

/** A cut reason a newer worker may send is shown as it is. */
export function cutReasonWords(reason: string): string {
  return Object.hasOwn(CUT_REASON_WORDS, reason) ? CUT_REASON_WORDS[reason as CutReason] : reason;
}

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** The settings as a list of terms and values ("Max depth": "10 clicks from the start URL"); `isUrl`: the
 * value is a URL (shown so it breaks between its words). */
export function crawlerSettingsRows(
  settings: CrawlerSettings,
): { term: string; value: string; isUrl?: boolean }[] {
  const isSite = settings.mode === 'site';
  const rows: { term: string; value: string; isUrl?: boolean }[] = [
    {
      term: 'What was crawled',
      value: isSite
        ? 'Links followed from the start URL'
        : 'Exactly the sitemaps’ URLs (and where they redirect)',
    },
  ];
  if (isSite) {
    rows.push(
      settings.startUrl
        ? { term: 'Start URL', value: settings.startUrl, isUrl: true }
        : { term: 'Start URL', value: 'The site root of the first sitemap URL' },
    );
  }
  rows.push({ term: 'Max pages', value: formatCount(settings.maxPages) });
  if (isSite) {
    rows.push({
      term: 'Max depth',
      value: `${plural(settings.maxDepth, 'click', 'clicks')} from the start URL`,
    });
  }
  rows.push(
    { term: 'Requests at once per host', value: formatCount(settings.concurrencyPerHost) },
    {
      term: 'Rendering',
      value: settings.render ? 'Rendered in headless Chromium' : 'HTML as served (no JavaScript)',
    },
  );
  return rows;
}

/** The status classes in the order a crawl report lists them, with their names. */
const STATUS_CLASSES: { key: string; label: string }[] = [
  { key: '2xx', label: '2xx OK' },
  { key: '3xx', label: '3xx redirects' },
  { key: '4xx', label: '4xx client errors' },
  { key: '5xx', label: '5xx server errors' },
  { key: 'error', label: 'No answer' },
  { key: 'blocked', label: 'Blocked by robots.txt' },
];

/** Answers by status class, known classes first in their order, then any other the worker counted; classes
 * with none are left out. */
export function statusTotals(
  byStatus: Record<string, number>,
): { key: string; label: string; count: number }[] {
  const known = STATUS_CLASSES.map(({ key, label }) => ({ key, label, count: byStatus[key] ?? 0 }));
  const other = Object.keys(byStatus)
    .filter((key) => !STATUS_CLASSES.some((known) => known.key === key))
    .sort()
    .map((key) => ({ key, label: key, count: byStatus[key] ?? 0 }));
  return [...known, ...other].filter((row) => row.count > 0);
}

/** "312 pages fetched · 1,204 queued": the progress line while the crawl runs. */
export function crawlingWords(progress: Pick<CrawlProgress, 'fetched' | 'queued'>): string {
  return `${plural(progress.fetched, 'page', 'pages')} fetched · ${formatCount(progress.queued)} queued`;
}

/** "2xx 300 · 4xx 2 · blocked 1": the answers so far, short enough for the progress panel. */
export function statusCountsWords(byStatus: Record<string, number>): string {
  return statusTotals(byStatus)
    .map((row) => `${row.key} ${formatCount(row.count)}`)
    .join(' · ');
}

/** Cut sections first (the most cut first), then the complete ones (the largest first), each by name. */
export function sortSections(sections: readonly SectionCoverage[]): SectionCoverage[] {
  return [...sections].sort(
    (a, b) =>
      Number(isCut(b)) - Number(isCut(a)) ||
      cutTotal(b) - cutTotal(a) ||
      b.pages - a.pages ||
      a.section.localeCompare(b.section),
  );
}

/** "Complete", or "Cut: 1,204 URLs not fetched, by the page limit (1,200) and the depth limit (4)". */
export function sectionCoverageWords(section: SectionCoverage, crawlStopped = false): string {
  const total = cutTotal(section);
  // A crawl that stopped early left pages unfetched that could link into any section.
  if (total === 0) return crawlStopped ? 'Not finished (the crawl stopped)' : 'Complete';
  const reasons = (Object.entries(section.cut) as [string, number | undefined][])
    .filter(([, count]) => (count ?? 0) > 0)
    .sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || a.localeCompare(b));
  const named =
    reasons.length === 1
      ? cutReasonWords(reasons[0]?.[0] ?? '')
      : reasons.map(([reason, count]) => `${cutReasonWords(reason)} (${formatCount(count ?? 0)})`);
  const by = typeof named === 'string' ? named : listWords(named);
  return `Cut: ${plural(total, 'URL', 'URLs')} not fetched, by ${by}`;
}

function listWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The note above the sections: how many a limit cut (their unreached declared URLs are held), or that
 * none was, so far while the crawl runs. */
export function cutSectionsWords(
  sections: readonly SectionCoverage[],
  isRunning = false,
  crawlStopped = false,
): string {
  if (crawlStopped && !isRunning)
    return 'The crawl stopped early, so no section counts as crawled completely: every declared URL it did not reach is held, not pruned.';
  const cut = sections.filter(isCut).length;
  if (cut === 0)
    return isRunning ? 'No section has been cut by a limit so far.' : 'Every section was crawled completely.';
  return `${plural(cut, 'section was', 'sections were')} cut by a limit: their declared URLs the crawl did not reach are held, not pruned.`;
}

/** The one host every section is on (`host/segment`), or null when the crawl saw more than one: then each
 * section is named with its host. */
export function sectionsHost(sections: readonly SectionCoverage[]): string | null {
  const hosts = new Set(sections.map((section) => section.section.split('/', 1)[0] ?? ''));
  const [host] = hosts;
  return hosts.size === 1 && host ? host : null;
}

/** A section's name in the table: its path ("/blog", "/") when every section is on `host`. */
export function sectionLabel(section: SectionCoverage, host: string | null): string {
  return host && section.section.startsWith(`${host}/`)
    ? section.section.slice(host.length)
    : section.section;
}

/** The alert's title when the crawl stopped early as a whole. */
export function stoppedTitle(reason: string): string {
  return `The crawl stopped early: ${cutReasonWords(reason)}`;
}
