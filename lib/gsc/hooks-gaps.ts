// TanStack Query hook for the Search Console gap table (issue #13): one per endpoint. Browser-safe: the
// request goes through lib/api/client.ts. The key sits under ['audits', 'detail', auditId, 'gsc'], so
// invalidating that prefix (an import or an inspection run that finished) reads the table again.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/client';
import type { GscGapsDto } from './gaps-shape';

export const gscGapKeys = {
  sitemaps: (auditId: string) => ['audits', 'detail', auditId, 'gsc', 'sitemaps'] as const,
};

export function useGscGaps(auditId: string) {
  return useQuery({
    queryKey: gscGapKeys.sitemaps(auditId),
    queryFn: ({ signal }) =>
      apiFetch<GscGapsDto>(`/api/v1/audits/${encodeURIComponent(auditId)}/gsc/sitemaps`, { signal }),
  });
}
