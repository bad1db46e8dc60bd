// TanStack Query hooks for the audits API, one per endpoint; active audits are polled until they finish.
// Requests go through the one browser client, lib/client/api.ts.
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiFetch } from '@/lib/client/api';
import { auditKeys } from '@/lib/client/audit-keys';
import { isActiveStatus } from './labels';
import type {
  AuditDto,
  AuditPage,
  AuditStatus,
  CreatedAuditDto,
  SitemapFilePage,
  TAuditListQuery,
  TAuditSettings,
} from './schema';
import { SITEMAP_PAGE_SIZE } from './sitemap-pages';

const POLL_MS = 1000;
/** Audits per page of the list (the list says how many pages there are from it). */
export const AUDIT_LIST_PAGE_SIZE = 25;

/** The list's filters, as the URL carries them. */
export type AuditListFilters = Pick<TAuditListQuery, 'status' | 'q'>;

export { auditKeys };

/** One page of the audits list under its filters; polled while an audit on it is queued or running. */
export function useAudits(filters: AuditListFilters, cursor: string | null) {
  return useQuery({
    queryKey: auditKeys.list(filters, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(AUDIT_LIST_PAGE_SIZE) });
      if (filters.status) params.set('status', filters.status);
      if (filters.q) params.set('q', filters.q);
      if (cursor) params.set('cursor', cursor);
      return apiFetch<AuditPage>(`/api/v1/audits?${params}`, { signal });
    },
    // The page shown stays while the next one loads (no flash of skeleton rows on Next or a new filter).
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      return query.state.data?.items.some((audit) => isActiveStatus(audit.status)) ? POLL_MS : false;
    },
  });
}

export function useAudit(id: string) {
  return useQuery({
    queryKey: auditKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<AuditDto>(`/api/v1/audits/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const status = query.state.data?.status;
      return status === undefined || isActiveStatus(status) ? POLL_MS : false;
    },
  });
}

/** The sitemap files, page by page in reading order (the pages read so far always make a tree: parents
 * come first), with the audit they belong to: its DTO is the one source of every count shown beside them.
 * While the audit runs the query is keyed on its counters, so the files are read again whenever the
 * counters move, and only the files they count are shown: the tree never runs ahead
 * of the tiles and the progress. Once the audit is final it is read once more, as its final tree. */
export function useSitemapFiles(id: string) {
  const audit = useAudit(id);
  const status: AuditStatus | undefined = audit.data?.status;
  const isActive = status === undefined || isActiveStatus(status);
  const counted = audit.data?.sitemap;
  // The walk finishes files in position order and counts them: positions 1..files are the counted files.
  const shown = status === 'running' && counted ? counted.files : Number.POSITIVE_INFINITY;

  return useInfiniteQuery({
    // The phase is part of the key: files read while the audit ran are never shown as its final tree. An
    // effect that refetched on the transition missed it when the component reading the files mounted
    // after it (a tab opened just after the audit finished, while the last poll's answer was still fresh).
    queryKey: [
      ...auditKeys.sitemaps(id),
      ...(isActive
        ? ['live', counted?.files ?? 0, counted?.filesFailed ?? 0, counted?.entries ?? 0]
        : ['final']),
    ],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(SITEMAP_PAGE_SIZE) });
      if (pageParam !== null) params.set('cursor', String(pageParam));
      return apiFetch<SitemapFilePage>(`/api/v1/audits/${encodeURIComponent(id)}/sitemaps?${params}`, {
        signal,
      });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.nextCursor,
    // The tree read at the previous counters stays up while the next one loads (no skeleton flash).
    placeholderData: keepPreviousData,
    select: (data) => ({
      items: data.pages.flatMap((page) => page.items).filter((file) => file.position <= shown),
      total: Math.min(data.pages[data.pages.length - 1]?.total ?? 0, shown),
      audit: audit.data,
    }),
    enabled: !audit.isError && audit.data !== undefined,
    // Every move of the counters is a new key: the trees of earlier counters are dropped at once, not
    // kept for minutes (a 50,000-file audit would hold one tree per second it ran).
    ...(isActive ? { gcTime: 0 } : {}),
  });
}

export function useCreateAudit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FormData) => apiFetch<CreatedAuditDto>('/api/v1/audits', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.lists() }),
  });
}

export function useDeleteAudit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<void>(`/api/v1/audits/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      // Stop polling the deleted audit; its page navigates away (removing it here would refetch a 404).
      void queryClient.cancelQueries({ queryKey: auditKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: auditKeys.lists() });
    },
  });
}

/** Changes the audit's settings (admins); the answer is the audit, shown at once. Lists and previews
 * of findings do not depend on settings; the decisions they govern are checked by the server. */
export function useUpdateAuditSettings(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: Partial<TAuditSettings>) =>
      apiFetch<AuditDto>(`/api/v1/audits/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ settings }),
      }),
    onSuccess: (audit) => queryClient.setQueryData<AuditDto>(auditKeys.detail(id), audit),
  });
}

/** Stops a queued or running audit (reviewers and admins). The answer is the cancelled audit, shown at once;
 * a 409 means it finished first, so its real state is fetched again. */
export function useCancelAudit(id: string) {
  const queryClient = useQueryClient();
  const detail = auditKeys.detail(id);
  return useMutation({
    mutationFn: () =>
      apiFetch<AuditDto>(`/api/v1/audits/${encodeURIComponent(id)}/cancel`, { method: 'POST' }),
    // A poll already in flight must not land after the answer and show the audit running again.
    onMutate: () => queryClient.cancelQueries({ queryKey: detail, exact: true }),
    onSuccess: (audit) => {
      queryClient.setQueryData<AuditDto>(detail, audit);
    },
    onError: () => queryClient.invalidateQueries({ queryKey: detail, exact: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditKeys.lists() }),
  });
}

/** Adds a crawl export to a settled audit that has none (reviewers and admins). The answer is the audit,
 * queued again: shown at once, so its page polls it through the crawl and the reconciliation. */
export function useAddCrawl(id: string) {
  const queryClient = useQueryClient();
  const detail = auditKeys.detail(id);
  return useMutation({
    mutationFn: (body: FormData) =>
      apiFetch<AuditDto>(`/api/v1/audits/${encodeURIComponent(id)}/crawl`, { method: 'POST', body }),
    onMutate: () => queryClient.cancelQueries({ queryKey: detail, exact: true }),
    onSuccess: (audit) => queryClient.setQueryData<AuditDto>(detail, audit),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditKeys.lists() }),
  });
}
