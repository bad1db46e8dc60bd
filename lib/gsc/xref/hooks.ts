// TanStack Query hook for the cross-reference of Search Console with the findings. The
// key sits under ['audits', 'detail', auditId, 'gsc'] like the gap table's, so invalidating that prefix
// (an import that finished) reads it again.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/client/api';
import type { GscCrossReferenceDto } from './types';

export const gscCrossReferenceKeys = {
  crossReference: (auditId: string) => ['audits', 'detail', auditId, 'gsc', 'cross-reference'] as const,
};

export function useGscCrossReference(auditId: string) {
  return useQuery({
    queryKey: gscCrossReferenceKeys.crossReference(auditId),
    queryFn: ({ signal }) =>
      apiFetch<GscCrossReferenceDto>(`/api/v1/audits/${encodeURIComponent(auditId)}/gsc/cross-reference`, {
        signal,
      }),
  });
}
