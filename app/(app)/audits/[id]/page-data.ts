// The audit page's first data, read while the server renders the page (the seed of audit-seed.ts): the
// audit, then at once everything the selected tab's first screen reads, each as its endpoint answers it.
import 'server-only';
import { firstNonEmptyList } from '@/components/findings/review-words';
import { getAudit } from '@/lib/audits/data';
import { auditIdParam } from '@/lib/core/params';
import { filterOf, findingQueryFromSearchParams, PAGE_SIZE, toSearchParams } from '@/lib/findings/format';
import { reasonCountsHref } from '@/lib/findings/links';
import { ZFindingQuery, ZReasonCountsQuery } from '@/lib/findings/schema';
import { findingsByFile, listFindings, reasonCounts } from '@/lib/review/data';
import { listSpotChecks } from '@/lib/spot-check/data';
import type { AuditPageSeed } from './_components/frame/audit-seed';

/** As the API's JSON: dates become strings, byte counts (bigint) numbers (lib/server/respond.ts does the same). */
function asJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? Number(v) : v))) as T;
}

/** A read the page can do without: on failure (a malformed cursor in the URL, a lost connection) it is
 * left out of the seed, so the browser asks for it and shows the error where it always did. */
async function optional<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

/** The seed, or undefined when there is nothing to seed (no such audit: the page asks and says so). */
export async function loadAuditPage(
  rawId: string,
  searchParams: URLSearchParams,
): Promise<AuditPageSeed | undefined> {
  const at = Date.now();
  let id: string;
  try {
    id = auditIdParam(rawId);
  } catch {
    return undefined;
  }
  const audit = await optional(() => getAudit(id));
  if (!audit) return undefined;
  const findings = audit.findings;
  if (!findings) return asJson({ at, audit });
  // The tab the page opens on (audit-sections.tsx): the URL's, else the first, the review.
  const tab = searchParams.get('tab') ?? 'review';
  const view = findingQueryFromSearchParams(searchParams, firstNonEmptyList(findings));
  const { reason: _reason, ...reasonFilter } = filterOf(view);
  const pageQuery = toSearchParams(view);
  pageQuery.set('limit', String(PAGE_SIZE));
  const reasonsQuery = new URL(reasonCountsHref(id, reasonFilter), 'http://seed').searchParams;
  const isReview = tab === 'review';
  const [byFile, page, reasons, runs] = await Promise.all([
    optional(() => findingsByFile(id)),
    isReview
      ? optional(() => listFindings(id, ZFindingQuery.parse(Object.fromEntries(pageQuery))))
      : undefined,
    isReview
      ? optional(() => reasonCounts(id, ZReasonCountsQuery.parse(Object.fromEntries(reasonsQuery))))
      : undefined,
    isReview || tab === 'spot-checks' ? optional(() => listSpotChecks(id)) : undefined,
  ]);
  return asJson<AuditPageSeed>({
    at,
    audit,
    byFile: byFile ? { items: byFile } : undefined,
    review: page && reasons ? { view, page, reasonFilter, reasons } : undefined,
    spotChecks: runs ? { runs } : undefined,
  });
}
