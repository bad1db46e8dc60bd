// TanStack Query hooks for Search Console imports (issue #13): the list (polled about once a second while
// an import is queued or running), an upload, a delete. When an import ends, everything the audit page
// reads about the audit is read again (the gap table, the findings' Search Console column).
// Browser-safe: requests go through lib/api/client.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiFetch } from '@/lib/api/client';
import { isActiveStatus } from '@/lib/audits/labels';
import { findingKeys } from '@/lib/findings/hooks';
import type { GscImportDto } from './import-schema';

const POLL_MS = 1000;

export const gscImportKeys = {
  list: (auditId: string) => ['audits', 'detail', auditId, 'gsc', 'imports'] as const,
};

function importsPath(auditId: string): string {
  return `/api/v1/audits/${encodeURIComponent(auditId)}/gsc`;
}

export function useGscImports(auditId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: gscImportKeys.list(auditId),
    queryFn: ({ signal }) =>
      apiFetch<{ imports: GscImportDto[] }>(`${importsPath(auditId)}/imports`, { signal }),
    select: (data) => data.imports,
    refetchInterval: (q) => {
      if (q.state.error) return false;
      return q.state.data?.imports.some((i) => isActiveStatus(i.status)) ? POLL_MS : false;
    },
  });
  // Once an import has ended, the audit's other Search Console reads are stale. A small import can end
  // before the list is read again after the upload, so an import first seen already ended counts too
  // (but not on the first read, when every listed import is old news).
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const before = seen.current;
    seen.current = new Map(query.data.map((i) => [i.id, i.status]));
    if (!before) return;
    const ended = query.data.filter((i) => {
      const was = before.get(i.id);
      return i.status === 'succeeded' && (was === undefined || isActiveStatus(was as GscImportDto['status']));
    });
    if (ended.length > 0) {
      void queryClient.invalidateQueries({ queryKey: ['audits', 'detail', auditId] });
      // The review's Search Console column and filters read the same states.
      void queryClient.invalidateQueries({ queryKey: findingKeys.all(auditId) });
    }
  }, [query.data, queryClient, auditId]);
  return query;
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
