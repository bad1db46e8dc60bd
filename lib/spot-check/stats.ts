// What a spot-check's sample says about the whole audit: rot rate, redirect ratio and orphan
// share with 95 % Wilson intervals, counts per verdict, and the stale-crawl warning. Pure.

import { VERDICTS } from '@/lib/findings/evidence/live';
import type { FindingList } from '@/lib/findings/schema';
import type { Hop, Verdict } from './types';

/** A share estimated from a sample: null value and bounds when nothing was measured (n = 0). */
export interface Proportion {
  value: number | null;
  low: number | null;
  high: number | null;
  /** Rows the share is taken over. */
  n: number;
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** Wilson score interval: unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at 0 or n,
 * which small samples (50 rows split over reasons) hit often. */
export function wilson(successes: number, n: number, z = Z95): Proportion {
  if (n <= 0) return { value: null, low: null, high: null, n: 0 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), n };
}

export { VERDICTS };

/** One checked row, as the statistics read it. */
export interface CheckedItem {
  list: FindingList;
  reason: string;
  verdict: Verdict;
  /** The redirect chain in order, as LiveResult has it (empty when nothing answered). */
  chain: readonly Pick<Hop, 'status'>[];
  finalStatus: number | null;
}

export interface StaleCrawlWarning {
  code: 'stale_crawl';
  /** Checked rows (errors left out) whose reason the live site contradicts: contradicted or recovered. */
  contradicting: number;
  checked: number;
  share: number;
  message: string;
}

export interface SpotCheckSummary {
  byVerdict: Record<Verdict, number>;
  /** Declared URLs (prune and held rows) ending in a 4xx, directly or after redirects. */
  rotRate: Proportion;
  /** Declared URLs whose first answer is a redirect. */
  redirectRatio: Proportion;
  /** URLs the crawl never fetched (unreached, newer than the crawl, section not crawled) that are live orphans. */
  orphanShare: Proportion;
  staleCrawl: StaleCrawlWarning | null;
}

/** More than this share of contradicting answers means the crawl export looks stale. */
export const STALE_SHARE = 0.2;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const UNFETCHED = new Set([
  'unreached_by_crawl',
  'newer_than_crawl',
  'section_not_crawled',
  'crawl_mismatch',
]);

export function summarize(items: readonly CheckedItem[]): SpotCheckSummary {
  const byVerdict = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const item of items) byVerdict[item.verdict]++;
  // A row that could not be checked says nothing about the site: it is in byVerdict only.
  const checked = items.filter((i) => i.verdict !== 'error' && i.finalStatus !== null);
  const declared = checked.filter((i) => i.list !== 'add');
  const rotten = declared.filter((i) => (i.finalStatus ?? 0) >= 400 && (i.finalStatus ?? 0) <= 499).length;
  const redirected = declared.filter((i) => REDIRECTS.has(i.chain[0]?.status ?? 0)).length;
  const unfetched = checked.filter((i) => UNFETCHED.has(i.reason));
  const orphans = unfetched.filter((i) => i.verdict === 'orphan_live').length;
  const contradicting = checked.filter(
    (i) => i.verdict === 'contradicted' || i.verdict === 'recovered',
  ).length;
  return {
    byVerdict,
    rotRate: wilson(rotten, declared.length),
    redirectRatio: wilson(redirected, declared.length),
    orphanShare: wilson(orphans, unfetched.length),
    staleCrawl: staleCrawlWarning(contradicting, checked.length),
  };
}

export function staleCrawlWarning(contradicting: number, checked: number): StaleCrawlWarning | null {
  if (checked === 0 || contradicting / checked <= STALE_SHARE) return null;
  const share = contradicting / checked;
  return {
    code: 'stale_crawl',
    contradicting,
    checked,
    share,
    message: `The live site contradicts the crawl for ${contradicting} of ${checked} checked URLs (${Math.round(share * 100)} %): the crawl export looks stale. Crawl again before pruning.`,
  };
}
