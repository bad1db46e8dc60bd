// TanStack Query hooks for URL Inspection, one per endpoint. Runs are polled every second while
// one is queued or working, every 30 s while one waits for the next day's quota, and not after.
// Browser-safe: requests go through lib/client/api.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isActiveStatus } from '@/lib/audits/labels';
import { apiFetch, isNotFound, sendJson } from '@/lib/client/api';
import { findingKeys } from '@/lib/review/hooks';
import type {
  GscCredentialsDto,
  GscInspectionRunDto,
  GscInspectionRunPage,
  TGscCredentialsInput,
  TGscInspectionRequest,
} from './inspection-schema';

const POLL_MS = 1000;
const WAITING_POLL_MS = 30_000;
const PAGE_SIZE = 50;

export const gscInspectionKeys = {
  credentials: (auditId: string) => ['audits', 'detail', auditId, 'gsc-inspections', 'credentials'] as const,
  list: (auditId: string) => ['audits', 'detail', auditId, 'gsc-inspections', 'list'] as const,
  page: (auditId: string, runId: string, cursor: string | null) =>
    ['audits', 'detail', auditId, 'gsc-inspections', 'run', runId, cursor] as const,
};

const base = (auditId: string) => `/api/v1/audits/${encodeURIComponent(auditId)}/gsc`;

function pollFor(runs: readonly Pick<GscInspectionRunDto, 'status' | 'phase'>[]): number | false {
  const active = runs.filter((run) => isActiveStatus(run.status));
  if (active.length === 0) return false;
  return active.every((run) => run.phase === 'waiting_for_quota') ? WAITING_POLL_MS : POLL_MS;
}

/** The audit's key as the API shows it; null when none is set. */
export function useGscCredentials(auditId: string) {
  return useQuery({
    queryKey: gscInspectionKeys.credentials(auditId),
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<GscCredentialsDto>(`${base(auditId)}/credentials`, { signal });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });
}

export function useSetGscCredentials(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TGscCredentialsInput) =>
      apiFetch<GscCredentialsDto>(`${base(auditId)}/credentials`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    onSuccess: (data) => queryClient.setQueryData(gscInspectionKeys.credentials(auditId), data),
  });
}

export function useRemoveGscCredentials(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson<void>(`${base(auditId)}/credentials`, 'DELETE'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gscInspectionKeys.credentials(auditId) }),
  });
}

export function useGscInspectionRuns(auditId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: gscInspectionKeys.list(auditId),
    queryFn: ({ signal }) =>
      apiFetch<{ runs: GscInspectionRunDto[] }>(`${base(auditId)}/inspections`, { signal }),
    select: (data) => data.runs,
    refetchInterval: (query) => (query.state.error ? false : pollFor(query.state.data?.runs ?? [])),
  });
  // A run's answers count in the gaps, the cross-reference and the review: once one has ended (or gone
  // to wait, its answers so far stored), those are read again.
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const before = seen.current;
    seen.current = new Map(query.data.map((r) => [r.id, `${r.status}:${r.phase}`]));
    if (!before) return;
    const settled = query.data.some((r) => {
      const was = before.get(r.id);
      const now = `${r.status}:${r.phase}`;
      return (
        was !== undefined && was !== now && (!isActiveStatus(r.status) || r.phase === 'waiting_for_quota')
      );
    });
    if (settled) {
      void queryClient.invalidateQueries({ queryKey: ['audits', 'detail', auditId, 'gsc'] });
      void queryClient.invalidateQueries({ queryKey: findingKeys.all(auditId) });
    }
  }, [query.data, queryClient, auditId]);
  return query;
}

/** One run and a page of its inspections (`cursor`: the previous page's nextCursor, null for the first). */
export function useGscInspectionRun(auditId: string, runId: string, cursor: string | null) {
  return useQuery({
    queryKey: gscInspectionKeys.page(auditId, runId, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (cursor) params.set('cursor', cursor);
      return apiFetch<GscInspectionRunPage>(
        `${base(auditId)}/inspections/${encodeURIComponent(runId)}?${params}`,
        { signal },
      );
    },
    placeholderData: (previous) => (previous?.id === runId ? previous : undefined),
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const data = query.state.data;
      return data ? pollFor([data]) : POLL_MS;
    },
  });
}

export function useStartGscInspection(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TGscInspectionRequest) =>
      sendJson<{ runId: string }>(`${base(auditId)}/inspections`, 'POST', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gscInspectionKeys.list(auditId) }),
  });
}

/** Stops a run; a 409 means it ended first, so the runs are read again either way. */
export function useCancelGscInspection(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) =>
      sendJson<GscInspectionRunDto>(
        `${base(auditId)}/inspections/${encodeURIComponent(runId)}/cancel`,
        'POST',
      ),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['audits', 'detail', auditId, 'gsc-inspections'] }),
  });
}
