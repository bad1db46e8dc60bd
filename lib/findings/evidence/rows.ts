// The evidence of a finding, defined once: which facts it holds, where each comes from and how it is
// shown, in the order of EVIDENCE. The API's evidence object (evidenceOf) is derived from it; the exports
// carry the facts a person applies as columns of their own (export/data.ts).
import type { FindingRow } from '../types';

/** The audit's crawl time (the reconcile's, from its findings summary), the one fact not on the row. */
export const CRAWL_TIME = 'crawl_time';

type Column = Exclude<keyof FindingRow, 'file_url' | 'file_upload_name' | 'files'>;

/**
 * How a fact is shown, absent facts being left out everywhere:
 * - `value`: text or number as it is (null is absent);
 * - `boolean`: true or false once known (null is absent);
 * - `flag`: only when true;
 * - `instant`: an ISO 8601 UTC timestamp, to the millisecond.
 */
type Shown = 'value' | 'boolean' | 'flag' | 'instant';

/** A fact that is shown only in some findings. */
type Condition =
  /** the column differs from the finding's URL */
  | 'differs_from_url'
  /** non_canonical is among the finding's reasons */
  | 'non_canonical'
  /** the column is above 1 */
  | 'repeated'
  /** the finding is held as newer_than_crawl */
  | 'newer_than_crawl';

export interface EvidenceField {
  /** The key in the API's evidence object. */
  key: string;
  source: Column | typeof CRAWL_TIME;
  shown: Shown;
  when?: Condition;
}

export const EVIDENCE: readonly EvidenceField[] = [
  { key: 'status', source: 'status', shown: 'value' },
  { key: 'crawledUrl', source: 'crawled_url', shown: 'value', when: 'differs_from_url' },
  { key: 'redirectTarget', source: 'redirect_url', shown: 'value' },
  { key: 'redirectTargetStatus', source: 'target_status', shown: 'value' },
  { key: 'canonical', source: 'canonical', shown: 'value', when: 'non_canonical' },
  { key: 'canonicalDeclared', source: 'canonical_declared', shown: 'boolean', when: 'non_canonical' },
  { key: 'canonicalStatus', source: 'canonical_status', shown: 'value', when: 'non_canonical' },
  { key: 'variantUrl', source: 'variant_url', shown: 'value' },
  { key: 'variantStatus', source: 'variant_status', shown: 'value' },
  { key: 'patternCount', source: 'pattern_count', shown: 'value' },
  { key: 'patternExamples', source: 'pattern_examples', shown: 'value' },
  { key: 'lastmod', source: 'lastmod', shown: 'instant' },
  { key: 'crawlTime', source: CRAWL_TIME, shown: 'value', when: 'newer_than_crawl' },
  { key: 'section', source: 'section', shown: 'value' },
  { key: 'occurrences', source: 'occurrences', shown: 'value', when: 'repeated' },
  { key: 'indexable', source: 'indexable', shown: 'boolean' },
  { key: 'noindex', source: 'noindex', shown: 'flag' },
  { key: 'blockedByRobots', source: 'blocked_by_robots', shown: 'flag' },
  { key: 'depth', source: 'depth', shown: 'value' },
  { key: 'crawledAt', source: 'crawled_at', shown: 'instant' },
];

// ── The API's evidence object ────────────────────────────────────────────────────────────────────

function applies(field: EvidenceField, row: FindingRow, value: unknown): boolean {
  switch (field.when) {
    case undefined:
      return true;
    case 'differs_from_url':
      return value !== row.url;
    case 'non_canonical':
      return row.reasons?.includes('non_canonical') ?? false;
    case 'repeated':
      return typeof value === 'number' && value > 1;
    case 'newer_than_crawl':
      return row.reason === 'newer_than_crawl';
  }
}

function shownValue(shown: Shown, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (shown) {
    case 'value':
    case 'boolean':
      return value;
    case 'flag':
      return value === true ? true : undefined;
    case 'instant':
      return value instanceof Date ? value.toISOString() : value;
  }
}

/** The facts behind a finding, as the API's evidence object (absent facts are left out). */
export function evidenceOf(row: FindingRow, crawlTime: string | null): Record<string, unknown> {
  const evidence: Record<string, unknown> = {};
  for (const field of EVIDENCE) {
    const value = field.source === CRAWL_TIME ? crawlTime : row[field.source];
    if (!applies(field, row, value)) continue;
    const shown = shownValue(field.shown, value);
    if (shown !== undefined) evidence[field.key] = shown;
  }
  return evidence;
}
