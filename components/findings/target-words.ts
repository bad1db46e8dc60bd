// How a finding's target (the redirect target, the canonical or the crawled variant) reads in a table
// cell and in the side panel (pure): its kind, and the path alone when it stays on the row's origin.
import type { FindingTarget } from '@/lib/findings/schema';

const KIND_LABELS: Record<FindingTarget['kind'], string> = {
  redirect: 'Redirect target',
  canonical: 'Canonical',
  variant: 'Crawled variant',
};

export function targetKindLabel(kind: FindingTarget['kind']): string {
  return KIND_LABELS[kind];
}

/** The target as short as it stays unambiguous: its path (and query) when it has the row's origin. */
export function shortTargetUrl(target: string, rowUrl: string): string {
  try {
    const to = new URL(target);
    const from = new URL(rowUrl);
    if (to.origin !== from.origin) return target;
    return `${to.pathname}${to.search}${to.hash}`;
  } catch {
    return target;
  }
}

/** Whether the target's status is one a sitemap should not point at (not 2xx). */
export function isBadTargetStatus(status: number | null): boolean {
  return status !== null && (status < 200 || status >= 300);
}
