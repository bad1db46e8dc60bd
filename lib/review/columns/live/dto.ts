// The live column's values in a finding's DTO: what the latest finished spot-check said of the row. Pure.
import type { FindingSpotCheck, FindingSpotCheckDetail } from '@/lib/findings/schema';
import type { LatestCheckRow } from '@/lib/findings/types';

/** A row's latest spot-check as the list shows it. */
export function toSpotCheck(check: LatestCheckRow | undefined): FindingSpotCheck | null {
  if (!check) return null;
  return {
    verdict: check.verdict,
    liveReason: check.live_reason,
    finalStatus: check.final_status,
    checkedAt: check.checked_at.toISOString(),
    runId: check.run_id,
  };
}

/** The same with its evidence, for the detail. */
export function toSpotCheckDetail(check: LatestCheckRow | undefined): FindingSpotCheckDetail | null {
  const summary = toSpotCheck(check);
  if (!check || !summary) return null;
  return {
    ...summary,
    chain: check.chain,
    noindex: check.noindex,
    canonical: check.canonical,
    contentType: check.content_type,
    ms: check.ms,
    error: check.error,
    explanation: check.explanation,
  };
}
