// TanStack Query hooks for the spot-check API, one per endpoint. Runs are polled about once a
// second while one is queued or running and not after. Browser-safe: requests go through lib/client/api.ts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isActiveStatus } from '@/lib/audits/labels';
import { apiFetch, sendJson } from '@/lib/client/api';
import type {
  SpotCheckComparison,
  SpotCheckRunDto,
  SpotCheckRunPage,
  TSpotCheckRequest,
  TSpotCheckRetry,
} from './schema';

const POLL_MS = 1000;
/** Items per page of a run's table. */
const SPOT_CHECK_PAGE_SIZE = 50;

export const spotCheckKeys = {
  list: (auditId: string) => ['audits', 'detail', auditId, 'spot-checks', 'list'] as const,
  run: (auditId: string, runId: string) =>
    ['audits', 'detail', auditId, 'spot-checks', 'run', runId] as const,
  page: (auditId: string, runId: string, cursor: string | null) =>
    ['audits', 'detail', auditId, 'spot-checks', 'run', runId, cursor] as const,
  compare: (auditId: string, baseId: string, otherId: string, cursor: string | null) =>
    ['audits', 'detail', auditId, 'spot-checks', 'compare', baseId, otherId, cursor] as const,
};

function runsPath(auditId: string): string {
  return `/api/v1/audits/${encodeURIComponent(auditId)}/spot-checks`;
}

export function useSpotCheckRuns(auditId: string) {
  return useQuery({
    queryKey: spotCheckKeys.list(auditId),
    queryFn: ({ signal }) => apiFetch<{ runs: SpotCheckRunDto[] }>(runsPath(auditId), { signal }),
    select: (data) => data.runs,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      return query.state.data?.runs.some((run) => isActiveStatus(run.status)) ? POLL_MS : false;
    },
  });
}

/** One run and a page of its items (`cursor`: the previous page's nextCursor, null for the first). */
export function useSpotCheckRun(auditId: string, runId: string, cursor: string | null) {
  return useQuery({
    queryKey: spotCheckKeys.page(auditId, runId, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(SPOT_CHECK_PAGE_SIZE) });
      if (cursor) params.set('cursor', cursor);
      return apiFetch<SpotCheckRunPage>(`${runsPath(auditId)}/${encodeURIComponent(runId)}?${params}`, {
        signal,
      });
    },
    // Items are stored when the run ends, so the page is polled until then and keeps what it shows meanwhile.
    placeholderData: (previous) => (previous?.id === runId ? previous : undefined),
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const status = query.state.data?.status;
      return status === undefined || isActiveStatus(status) ? POLL_MS : false;
    },
  });
}

export function useStartSpotCheck(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSpotCheckRequest) => sendJson<{ runId: string }>(runsPath(auditId), 'POST', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: spotCheckKeys.list(auditId) }),
  });
}

/** Stops a queued or running run; a 409 means it ended first, so the runs are read again either way. */
export function useCancelSpotCheck(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) =>
      sendJson<SpotCheckRunDto>(`${runsPath(auditId)}/${encodeURIComponent(runId)}/cancel`, 'POST'),
    onSettled: (_data, _error, runId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: spotCheckKeys.list(auditId) }),
        queryClient.invalidateQueries({ queryKey: spotCheckKeys.run(auditId, runId) }),
      ]),
  });
}

/** Starts a new run from an ended one: the whole request again, or `{ only: 'errors' }`. */
export function useRetrySpotCheck(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, ...body }: { runId: string } & TSpotCheckRetry) =>
      sendJson<{ runId: string }>(`${runsPath(auditId)}/${encodeURIComponent(runId)}/retry`, 'POST', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: spotCheckKeys.list(auditId) }),
  });
}

/** What changed from `baseId` to `otherId` (two ended runs: nothing changes any more, so no polling), a
 * page of changed rows after `cursor`. */
export function useSpotCheckComparison(
  auditId: string,
  baseId: string,
  otherId: string,
  cursor: string | null,
) {
  return useQuery({
    queryKey: spotCheckKeys.compare(auditId, baseId, otherId, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(SPOT_CHECK_PAGE_SIZE) });
      if (cursor) params.set('cursor', cursor);
      return apiFetch<SpotCheckComparison>(
        `${runsPath(auditId)}/${encodeURIComponent(baseId)}/compare/${encodeURIComponent(otherId)}?${params}`,
        { signal },
      );
    },
    placeholderData: (previous) =>
      previous?.base.id === baseId && previous.other.id === otherId ? previous : undefined,
  });
}
