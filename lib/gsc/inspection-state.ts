// What one URL Inspection answer means for the per-sitemap picture: indexed, or not indexed with the
// bucket of its coverage state (lib/findings/evidence/gsc-reasons.ts). Pure.

import { bucketOf, type GscBucket, isIndexedReason } from '@/lib/findings/evidence/gsc-reasons';
import type { IndexStatus } from './inspection-schema';

export type InspectionState =
  | { state: 'indexed'; bucket: null }
  | { state: 'not_indexed'; bucket: GscBucket };

export function inspectionStateOf(status: IndexStatus): InspectionState {
  const indexed = status.coverageState !== null && isIndexedReason(status.coverageState);
  if (status.verdict === 'PASS' || indexed) return { state: 'indexed', bucket: null };
  return { state: 'not_indexed', bucket: status.coverageState ? bucketOf(status.coverageState) : 'other' };
}
