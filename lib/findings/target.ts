// What a finding's reason points to — the redirect target, the canonical or the crawled variant — defined
// once: the API's `target` (targetOf) and the export's replace_with / target_status columns (targetSql,
// computed by Postgres) both follow TARGETS.
import type { FindingTarget } from './schema';
import type { FindingRow } from './types';

type Column =
  | 'redirect_url'
  | 'target_status'
  | 'canonical'
  | 'canonical_status'
  | 'variant_url'
  | 'variant_status';

interface TargetRule {
  /** The reason that points somewhere. */
  reason: 'redirects' | 'non_canonical' | 'url_variant';
  kind: FindingTarget['kind'];
  url: Column;
  /** The target's own crawl status: a target is named only when the crawl saw it answer 200. */
  status: Column;
}

export const TARGETS: readonly TargetRule[] = [
  { reason: 'redirects', kind: 'redirect', url: 'redirect_url', status: 'target_status' },
  { reason: 'non_canonical', kind: 'canonical', url: 'canonical', status: 'canonical_status' },
  { reason: 'url_variant', kind: 'variant', url: 'variant_url', status: 'variant_status' },
];

/** Reasons that say no URL of the row's is a safe replacement: its redirects and canonicals loop or chain,
 * or its canonical is a template's pattern (the canonical is the bug, not the page to declare). */
const NO_TARGET = ['canonical_conflict', 'canonical_pattern'] as const;

/** The target of the first of the row's reasons (in reasons order) that points to a known URL the crawl
 * saw answer 200; else null. A target that redirects, fails or was not crawled is no replacement: it is
 * never offered (the evidence still names it). */
export function targetOf(row: FindingRow): FindingTarget | null {
  const reasons = row.reasons ?? [row.reason];
  if (NO_TARGET.some((r) => reasons.includes(r))) return null;
  for (const reason of reasons) {
    const rule = TARGETS.find((t) => t.reason === reason);
    const url = rule ? row[rule.url] : null;
    if (!rule || typeof url !== 'string' || url === '' || row[rule.status] !== 200) continue;
    return { kind: rule.kind, url, status: 200 };
  }
  return null;
}

/**
 * The same as a LATERAL subquery over `findings f`, giving `kind`, `url` and `status` (all null when no
 * reason points anywhere): `LEFT JOIN LATERAL ${targetSql()} t ON true`. Each rule's place among the
 * reasons is compared with the others' in CASE expressions: no per-row sort (a VALUES list sorted per row
 * made a 720,000-row CSV export take 7.5 s instead of 1).
 */
export function targetSql(): string {
  const reasons = 'coalesce(f.reasons, ARRAY[f.reason])';
  const noTarget = `ARRAY[${NO_TARGET.map((r) => `'${r}'`).join(', ')}]`;
  const places = TARGETS.map(
    (t, i) =>
      `CASE WHEN f.${t.url} <> '' AND f.${t.status} = 200 AND NOT ${reasons} && ${noTarget}
            THEN array_position(${reasons}, '${t.reason}') END AS p${i}`,
  );
  // Rule i applies when it has a place and every other rule with a place comes after it.
  const first = (i: number) =>
    [
      `p${i} IS NOT NULL`,
      ...TARGETS.flatMap((_, j) => (j === i ? [] : [`(p${j} IS NULL OR p${i} < p${j})`])),
    ].join(' AND ');
  const pick = (value: (t: TargetRule) => string) =>
    `CASE ${TARGETS.map((t, i) => `WHEN ${first(i)} THEN ${value(t)}`).join(' ')} END`;
  return `(SELECT ${pick((t) => `'${t.kind}'`)} AS kind, ${pick((t) => `f.${t.url}`)} AS url,
            ${pick((t) => `f.${t.status}`)} AS status
     FROM (SELECT ${places.join(', ')}) p)`;
}
