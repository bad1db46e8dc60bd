// The evidence of a finding, defined once: which facts it holds, where each comes from and how it is
// shown. The API's evidence object (evidenceOf) and the CSV export's detail column (evidenceDetailSql,
// formatted by Postgres) are both derived from EVIDENCE, in its order.
import type { FindingRow } from './types';

/** The audit's crawl time (the reconcile's, from its findings summary), the one fact not on the row. */
export const CRAWL_TIME = 'crawl_time';

type Column = Exclude<keyof FindingRow, 'file_url' | 'file_upload_name'>;

/**
 * How a fact is shown, absent facts being left out everywhere:
 * - `value`: text or number as it is (null is absent);
 * - `boolean`: true or false once known (null is absent);
 * - `flag`: only when true;
 * - `instant`: an ISO 8601 UTC timestamp; to the millisecond in the API, to the second in the CSV.
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
  /** The key in the API's evidence object and in the CSV's `key=value` detail. */
  key: string;
  source: Column | typeof CRAWL_TIME;
  shown: Shown;
  when?: Condition;
  /** False for facts the CSV's detail column has never carried (its format is what spreadsheets parse). */
  inDetail?: false;
}

export const EVIDENCE: readonly EvidenceField[] = [
  { key: 'status', source: 'status', shown: 'value' },
  { key: 'crawledUrl', source: 'crawled_url', shown: 'value', when: 'differs_from_url' },
  { key: 'redirectTarget', source: 'redirect_url', shown: 'value' },
  { key: 'redirectTargetStatus', source: 'target_status', shown: 'value' },
  { key: 'canonical', source: 'canonical', shown: 'value', when: 'non_canonical' },
  { key: 'canonicalDeclared', source: 'canonical_declared', shown: 'boolean', when: 'non_canonical' },
  { key: 'variantUrl', source: 'variant_url', shown: 'value' },
  { key: 'lastmod', source: 'lastmod', shown: 'instant' },
  { key: 'crawlTime', source: CRAWL_TIME, shown: 'value', when: 'newer_than_crawl' },
  { key: 'section', source: 'section', shown: 'value' },
  { key: 'occurrences', source: 'occurrences', shown: 'value', when: 'repeated' },
  { key: 'indexable', source: 'indexable', shown: 'boolean', inDetail: false },
  { key: 'noindex', source: 'noindex', shown: 'flag' },
  { key: 'blockedByRobots', source: 'blocked_by_robots', shown: 'flag' },
  { key: 'depth', source: 'depth', shown: 'value' },
  { key: 'crawledAt', source: 'crawled_at', shown: 'instant', inDetail: false },
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

// ── The CSV's detail column ──────────────────────────────────────────────────────────────────────

function conditionSql(when: Condition, column: string): string {
  switch (when) {
    case 'differs_from_url':
      return `${column} <> f.url`;
    case 'non_canonical':
      return `'non_canonical' = ANY (f.reasons)`;
    case 'repeated':
      return `${column} > 1`;
    case 'newer_than_crawl':
      return `f.reason = 'newer_than_crawl'`;
  }
}

function shownSql(field: EvidenceField, column: string): string {
  const prefix = `'${field.key}='`;
  switch (field.shown) {
    case 'value':
    case 'boolean':
      // Concatenating NULL gives NULL, which concat_ws leaves out: an absent fact has no pair.
      return `${prefix} || ${column}`;
    case 'flag':
      return `CASE WHEN ${column} THEN ${prefix} || 'true' END`;
    case 'instant':
      return `${prefix} || to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  }
}

/**
 * The evidence as `key=value` pairs joined by `; `, as an SQL expression over `findings f`.
 * `crawlTime` is an SQL expression (a literal: COPY takes no parameters) for the audit's crawl time.
 */
export function evidenceDetailSql(crawlTime: string): string {
  const pairs = EVIDENCE.filter((field) => field.inDetail !== false).map((field) => {
    const column = field.source === CRAWL_TIME ? crawlTime : `f.${field.source}`;
    const shown = shownSql(field, column);
    return field.when ? `CASE WHEN ${conditionSql(field.when, column)} THEN ${shown} END` : shown;
  });
  return `concat_ws('; ', ${pairs.join(', ')})`;
}
