// TanStack Query hooks for the sitemap lint API, one per endpoint. The report is polled about
// once a second while a lint is queued or running and not after. Browser-safe: requests go through
// lib/client/api.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, sendJson } from '@/lib/client/api';
import { isLintActive, type LintReport } from './schema';

const POLL_MS = 1000;

export const lintKeys = {
  all: (auditId: string) => ['audits', 'detail', auditId, 'lint'] as const,
  report: (auditId: string, limit: number) => ['audits', 'detail', auditId, 'lint', limit] as const,
};

function lintPath(auditId: string): string {
  return `/api/v1/audits/${encodeURIComponent(auditId)}/lint`;
}

/** The lint report with the first `limit` files of the dirt ranking. */
export function useAuditLint(auditId: string, limit: number) {
  return useQuery({
    queryKey: lintKeys.report(auditId, limit),
    queryFn: ({ signal }) => apiFetch<LintReport>(`${lintPath(auditId)}?limit=${limit}`, { signal }),
    // A longer ranking keeps the shorter one on screen until it arrives.
    placeholderData: (previous) => previous,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const status = query.state.data?.status;
      return status !== undefined && isLintActive(status) ? POLL_MS : false;
    },
  });
}

/** "Re-check": grades the audit's sitemap files again (reviewers); with a site URL, uploaded files' relative
 * locations resolve against it (and the host rules compare with it). */
export function useRecheckLint(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (siteUrl?: string) =>
      sendJson<{ runId: string }>(lintPath(auditId), 'POST', siteUrl ? { siteUrl } : undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: lintKeys.all(auditId) }),
  });
}
