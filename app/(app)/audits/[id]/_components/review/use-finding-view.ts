'use client';
// The findings view (list, filters, sort, cursor) as the page's search params. Changes go through the
// browser history, which Next.js keeps in sync with useSearchParams, so no server round trip is made.
// Without a list in the URL the view opens on the first list that has rows. A review URL carries no `tab`
// (audit-sections.tsx), so every change of the view shows the Review tab, where the view is seen.
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { firstNonEmptyList } from '@/components/findings/review-words';
import { type FindingView, findingQueryFromSearchParams, toSearchParams } from '@/lib/findings/format';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';
import { SECTIONS_ID } from '../frame/audit-sections';
import { declaredListFor } from './review-view';

export type HistoryMode = 'push' | 'replace';

export function useFindingView(
  fallbackList: FindingList = 'prune',
): [FindingView, (next: FindingView, mode?: HistoryMode) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const key = searchParams.toString();
  // Keyed on the text: the params object may change identity without its content changing.
  const view = useMemo(
    () => findingQueryFromSearchParams(new URLSearchParams(key), fallbackList),
    [key, fallbackList],
  );
  const setView = useCallback(
    (next: FindingView, mode: HistoryMode = 'push') => {
      const url = `${pathname}?${toSearchParams(next)}`;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    },
    [pathname],
  );
  return [view, setView];
}

/** Scrolls the review into sight; while another tab was selected the review is not on the page yet, so
 * the tab strip it opens under is the target. */
export function revealReview() {
  const target = document.getElementById('findings') ?? document.getElementById(SECTIONS_ID);
  // No smooth scrolling for readers who ask for reduced motion (CSS scroll-behavior does not reach this).
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target?.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
}

/** Filters of the review set from elsewhere on the page (a file's bar or tree row, a signal warning). */
export type FilterReview = (patch: Pick<Partial<FindingView>, 'file' | 'signal'>) => void;

/** The view, and a way to filter it from outside the review that brings the review into sight. File and
 * signal filters only select declared rows, so from the Add list they switch to the first declared list
 * that has rows. */
export function useReviewView(
  findings: Pick<FindingsOverview, FindingList>,
): [FindingView, (next: FindingView, mode?: HistoryMode) => void, FilterReview] {
  const [view, setView] = useFindingView(firstNonEmptyList(findings));
  const filterReview = useCallback<FilterReview>(
    (patch) => {
      setView({ ...view, ...patch, list: declaredListFor(view.list, findings), cursor: undefined });
      revealReview();
    },
    [view, setView, findings],
  );
  return [view, setView, filterReview];
}
