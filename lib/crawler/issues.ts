// What an audit says about its built-in crawl once it ends: where a limit cut it (those sections' unreached
// URLs are held, not pruned), why it stopped early, and an error when it fetched nothing at all.
import type { CrawlProgress, CutReason, SectionCoverage } from './types';

export const CUT_WORDS: Record<CutReason, string> = {
  max_pages: 'past the page limit',
  max_depth: 'deeper than the depth limit',
  pattern_budget: 'over the budget of their path pattern',
  query_variants: 'over the budget of query strings on one path',
  host_refused: 'on a host that kept refusing requests',
  failing: 'left when the crawl stopped because most requests failed',
  cancelled: 'left when the crawl stopped',
};

const count = (n: number) => n.toLocaleString('en-US');

/** The URLs a section's limits cut, in words ("1,200 past the page limit, 40 deeper than the depth limit"). */
export function cutWords(section: SectionCoverage): string {
  return (Object.entries(section.cut) as [CutReason, number][])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${count(n)} ${CUT_WORDS[reason]}`)
    .join(', ');
}

/** URLs of a section that a limit kept from being fetched. */
export function cutTotal(section: SectionCoverage): number {
  return Object.values(section.cut).reduce((sum, n) => sum + (n ?? 0), 0);
}

export function isCut(section: SectionCoverage): boolean {
  return cutTotal(section) > 0;
}

export interface CrawlIssues {
  warnings: { code: string; message: string }[];
  errors: { code: string; message: string; source: string | null }[];
}

/** Answers with an HTTP status (not errors, not URLs robots.txt kept the crawler from). */
export function answered(progress: CrawlProgress): number {
  return ['2xx', '3xx', '4xx', '5xx'].reduce((sum, k) => sum + (progress.byStatus[k] ?? 0), 0);
}

export function crawlIssues(progress: CrawlProgress): CrawlIssues {
  const warnings: CrawlIssues['warnings'] = [];
  const errors: CrawlIssues['errors'] = [];
  if (progress.stopped) {
    warnings.push({
      code: 'crawler_stopped',
      message: `${progress.stopped.message}. Declared URLs it did not reach are held, not pruned: the pages it never fetched could have linked to them.`,
    });
  }
  const cut = progress.sections.filter(isCut);
  if (cut.length > 0) {
    const shown = cut
      .slice(0, 5)
      .map((s) => `${s.section} (${cutWords(s)}${s.example ? `, e.g. ${s.example}` : ''})`)
      .join('; ');
    const more = cut.length > 5 ? `; and ${count(cut.length - 5)} more` : '';
    warnings.push({
      code: 'crawler_cut',
      message: `The crawl was cut by a limit in ${count(cut.length)} section${cut.length === 1 ? '' : 's'}: ${shown}${more}. Their declared URLs the crawl did not reach are held as "section not crawled", not pruned.`,
    });
  }
  if (answered(progress) === 0) {
    const blocked = progress.byStatus.blocked ?? 0;
    errors.push({
      code: 'crawler_no_pages',
      message: progress.stopped
        ? `The crawl got no answer from the site: ${progress.stopped.message}`
        : blocked > 0
          ? `The crawl got no answer from the site: robots.txt disallows ${count(blocked)} of the URLs it had to fetch for this crawler`
          : 'The crawl got no answer from the site: see the crawl tab for the errors',
      source: null,
    });
  }
  return { warnings, errors };
}
