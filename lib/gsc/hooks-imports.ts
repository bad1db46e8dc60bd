// TanStack Query hooks for Search Console imports: the list (polled about once a second while
// an import is queued or running), an upload, a delete. When an import ends the gap table reads itself
// again, with the rest of what the page reads from Search Console (lib/gsc/hooks-gaps.ts).
// Browser-safe: requests go through lib/client/api.ts.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isActiveStatus } from '@/lib/audits/labels';
import { apiFetch } from '@/lib/client/api';
import type { GscImportDto } from './import-schema';

const POLL_MS = 1000;

export const gscImportKeys = {
  list: (auditId: string) => ['audits', 'detail', auditId, 'gsc', 'imports'] as const,
};

function importsPath(auditId: string): string {
  return `/api/v1/audits/${encodeURIComponent(auditId)}/gsc`;
}

/** The imports list's query, shared by the list and by the gap table (which compares it with what its own
 * answer was read after): polled about once a second while an import is queued or running. */
export function gscImportsQuery(auditId: string) {
  return queryOptions({
    queryKey: gscImportKeys.list(auditId),
    queryFn: ({ signal }) =>
      apiFetch<{ imports: GscImportDto[] }>(`${importsPath(auditId)}/imports`, { signal }),
    refetchInterval: (q) => {
      if (q.state.error) return false;
      return q.state.data?.imports.some((i) => isActiveStatus(i.status)) ? POLL_MS : false;
    },
  });
}

export function useGscImports(auditId: string) {
  return useQuery({ ...gscImportsQuery(auditId), select: (data) => data.imports });
}

export function useStartGscImport(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /** `issue`: the issue of a drill-down table uploaded without its Metadata.csv (empty: none named). */
    mutationFn: ({ files, issue }: { files: readonly File[]; issue?: string }) => {
      const body = new FormData();
      if (issue) body.append('issue', issue);
      for (const file of files) body.append('files', file, file.name);
      return apiFetch<{ importId: string }>(importsPath(auditId), { method: 'POST', body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gscImportKeys.list(auditId) }),
  });
}

/** Removes one import (admins); the audit's Search Console reads change with it. */
export function useDeleteGscImport(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (importId: string) =>
      apiFetch<void>(`${importsPath(auditId)}/imports/${encodeURIComponent(importId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['audits', 'detail', auditId] }),
  });
}
