// TanStack Query hook for the Search Console gap table: one per endpoint. Browser-safe: the
// request goes through lib/client/api.ts. The key sits under ['audits', 'detail', auditId, 'gsc'], so
// invalidating that prefix (an import or an inspection run that finished) reads the table again.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiFetch } from '@/lib/client/api';
import { findingKeys } from '@/lib/review/hooks';
import { type GscGapsDto, importsSignatureOf } from './gaps-shape';
import { gscImportsQuery } from './hooks-imports';

export const gscGapKeys = {
  sitemaps: (auditId: string) => ['audits', 'detail', auditId, 'gsc', 'sitemaps'] as const,
};

/**
 * The gap table. Its answer says which succeeded imports it was read after; whenever the imports list
 * (polled while one runs) shows others — one that just ended, one started from another tab or the API,
 * one deleted — the table and the rest the page reads from Search Console (the cross-reference, the
 * review's column) are read again. Comparing the two, not watching statuses change, also holds when the
 * section was not on screen as the import ended, or when it ended before the list was read again.
 */
export function useGscGaps(auditId: string) {
  const queryClient = useQueryClient();
  const gaps = useQuery({
    queryKey: gscGapKeys.sitemaps(auditId),
    queryFn: ({ signal }) =>
      apiFetch<GscGapsDto>(`/api/v1/audits/${encodeURIComponent(auditId)}/gsc/sitemaps`, { signal }),
  });
  const imports = useQuery(gscImportsQuery(auditId));
  const listed = imports.data ? importsSignatureOf(imports.data.imports) : null;
  const shown = gaps.data?.importsSignature;
  // Once per list state: a list the answer cannot match (over the list's 100 imports) is not a loop.
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (listed === null || shown === undefined || shown === listed || asked.current === listed) return;
    asked.current = listed;
    void queryClient.invalidateQueries({ queryKey: ['audits', 'detail', auditId] });
    void queryClient.invalidateQueries({ queryKey: findingKeys.all(auditId) });
  }, [listed, shown, queryClient, auditId]);
  return gaps;
}
