'use client';
// The findings view (list, filters, sort, cursor) as the page's search params. Changes go through the
// browser history, which Next.js keeps in sync with useSearchParams, so no server round trip is made.
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { type FindingView, findingQueryFromSearchParams, toSearchParams } from '@/lib/findings/format';

export type HistoryMode = 'push' | 'replace';

export function useFindingView(): [FindingView, (next: FindingView, mode?: HistoryMode) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const key = searchParams.toString();
  // Keyed on the text: the params object may change identity without its content changing.
  const view = useMemo(() => findingQueryFromSearchParams(new URLSearchParams(key)), [key]);
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
