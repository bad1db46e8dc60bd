// The Search Console column's values in a finding's DTO: the key's current state. Pure.
import { agreesWith, isGscBucket } from '@/lib/findings/evidence/gsc';
import type { FindingGsc, FindingGscDetail } from '@/lib/findings/schema';
import type { GscStateRow } from '@/lib/findings/types';

/** A row's current Search Console state as the list shows it; `reasons` are the finding's. */
export function toGsc(state: GscStateRow | undefined, reasons: readonly string[]): FindingGsc | null {
  if (!state) return null;
  const bucket = state.bucket !== null && isGscBucket(state.bucket) ? state.bucket : null;
  return {
    state: state.state,
    reason: state.reason,
    bucket,
    lastCrawled: state.last_crawled,
    source: state.source,
    agrees: state.state === 'indexed' ? null : agreesWith(bucket, reasons),
  };
}

/** The same with the import it came from, for the detail. */
export function toGscDetail(
  state: GscStateRow | undefined,
  reasons: readonly string[],
): FindingGscDetail | null {
  const summary = toGsc(state, reasons);
  if (!state || !summary) return null;
  return {
    ...summary,
    url: state.url,
    scope: state.scope,
    importId: state.import_id,
    importedAt: state.imported_at.toISOString(),
  };
}
