// TanStack Query hooks for the monitoring API, one per endpoint. A site is polled every second
// while a run of it is queued or running, and every few seconds while it has schedules (a due schedule
// starts a run nobody on the page asked for). Browser-safe: requests go through lib/client/api.ts.
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiFetch, sendJson } from '@/lib/client/api';
import type {
  AuditDiffDto,
  ChangeType,
  CreatedSiteRunDto,
  DeliveryPage,
  DiffType,
  ScheduleDto,
  SiteChangePage,
  SiteDetailDto,
  SitePage,
  TScheduleInput,
  TSitePatch,
  TSiteRunInput,
  TWebhookInput,
  WebhookDto,
} from './schema';

const POLL_MS = 1000;
/** While nothing runs but a schedule may start a run: often enough to see it start, cheap enough to idle. */
const SCHEDULED_POLL_MS = 5000;
const SITES_PAGE_SIZE = 25;
const CHANGES_PAGE_SIZE = 50;
const DIFF_PAGE_SIZE = 100;
const DELIVERIES_PAGE_SIZE = 25;

/** The change feed's filters, as its URL carries them. */
export interface ChangeFilters {
  type?: ChangeType;
  /** An ISO instant: events created at or after it. */
  since?: string;
  q?: string;
}

export const siteKeys = {
  all: ['sites'] as const,
  lists: () => ['sites', 'list'] as const,
  list: (q: string, cursor: string | null) => ['sites', 'list', q, cursor] as const,
  detail: (id: string) => ['sites', 'detail', id] as const,
  changes: (id: string, filters: ChangeFilters, baseline: string | null) =>
    [
      'sites',
      'detail',
      id,
      'changes',
      filters.type ?? '',
      filters.since ?? '',
      filters.q ?? '',
      baseline,
    ] as const,
  schedules: (id: string) => ['sites', 'detail', id, 'schedules'] as const,
  webhooks: (id: string) => ['sites', 'detail', id, 'webhooks'] as const,
  deliveries: (id: string, webhookId: number) => ['sites', 'detail', id, 'webhooks', webhookId] as const,
  diff: (from: string, to: string, type: DiffType | null, cursor: string | null) =>
    ['audit-diff', from, to, type ?? '', cursor] as const,
};

function sitePath(id: string): string {
  return `/api/v1/sites/${encodeURIComponent(id)}`;
}

/** One page of the sites list, searched by host or name; polled while a site on it has a run going. */
export function useSites(q: string, cursor: string | null) {
  return useQuery({
    queryKey: siteKeys.list(q, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(SITES_PAGE_SIZE) });
      if (q) params.set('q', q);
      if (cursor) params.set('cursor', cursor);
      return apiFetch<SitePage>(`/api/v1/sites?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (query.state.error) return false;
      return query.state.data?.items.some((site) => site.activeRun) ? POLL_MS : false;
    },
  });
}

/** A run's history (change events, confirmations) is written just after it finishes: the site is still
 * read for this long after its newest run finished, so its counts arrive without a reload. */
const HISTORY_GRACE_MS = 60_000;

/** True while a run of the site goes or finished less than HISTORY_GRACE_MS ago. */
function finishedJustNow(site: SiteDetailDto | undefined): boolean {
  if (!site) return false;
  if (site.activeRun) return true;
  const finished = site.latestRun?.finishedAt ? Date.parse(site.latestRun.finishedAt) : 0;
  return Date.now() - finished < HISTORY_GRACE_MS;
}

/** One site and its runs, polled while a run of it goes or has just finished (and, more slowly, while it
 * has schedules). */
export function useSite(id: string) {
  return useQuery({
    queryKey: siteKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<SiteDetailDto>(sitePath(id), { signal }),
    refetchInterval: (query) => {
      const site = query.state.data;
      if (query.state.error || !site) return false;
      if (site.activeRun) return POLL_MS;
      if (finishedJustNow(site)) return SCHEDULED_POLL_MS;
      return site.schedules > 0 ? SCHEDULED_POLL_MS : false;
    },
  });
}

/** Renames a site or changes its settings (admins); the answer is shown at once, runs kept. */
export function useUpdateSite(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: TSitePatch) => sendJson<SiteDetailDto>(sitePath(id), 'PATCH', patch),
    onSuccess: (site) => {
      queryClient.setQueryData<SiteDetailDto>(siteKeys.detail(id), site);
      return queryClient.invalidateQueries({ queryKey: siteKeys.lists() });
    },
  });
}

/** Run again (reviewers): JSON, or a form with a `crawl` file replacing the crawl export. A 409 means a run
 * of the site is going; the site is read again either way so its active run shows. */
export function useStartSiteRun(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSiteRunInput | FormData) =>
      body instanceof FormData
        ? apiFetch<CreatedSiteRunDto>(`${sitePath(id)}/runs`, { method: 'POST', body })
        : sendJson<CreatedSiteRunDto>(`${sitePath(id)}/runs`, 'POST', body),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: siteKeys.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: siteKeys.lists() }),
      ]),
  });
}

/** The change feed, newest first, a page at a time ("Load more"). `baseline` (the site's last complete run)
 * is in the key: events are written when a complete run settles, so a new one starts the feed afresh. */
export function useSiteChanges(id: string, filters: ChangeFilters, baseline: string | null) {
  return useInfiniteQuery({
    queryKey: siteKeys.changes(id, filters, baseline),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(CHANGES_PAGE_SIZE) });
      if (filters.type) params.set('type', filters.type);
      if (filters.since) params.set('since', filters.since);
      if (filters.q) params.set('q', filters.q);
      if (pageParam) params.set('cursor', pageParam);
      return apiFetch<SiteChangePage>(`${sitePath(id)}/changes?${params}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    placeholderData: keepPreviousData,
    select: (data) => ({
      items: data.pages.flatMap((page) => page.items),
      counts: data.pages[0]?.counts ?? null,
    }),
  });
}

/** One page of the diff between two audits of a site, of one type or all. */
export function useAuditDiff(from: string, to: string, type: DiffType | null, cursor: string | null) {
  return useQuery({
    queryKey: siteKeys.diff(from, to, type, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(DIFF_PAGE_SIZE) });
      if (type) params.set('type', type);
      if (cursor) params.set('cursor', cursor);
      return apiFetch<AuditDiffDto>(
        `/api/v1/audits/${encodeURIComponent(from)}/diff/${encodeURIComponent(to)}?${params}`,
        { signal },
      );
    },
    placeholderData: keepPreviousData,
  });
}

/** The site's schedules; polled slowly, since their next and last runs move on by themselves. */
export function useSchedules(siteId: string) {
  return useQuery({
    queryKey: siteKeys.schedules(siteId),
    queryFn: ({ signal }) => apiFetch<{ items: ScheduleDto[] }>(`${sitePath(siteId)}/schedules`, { signal }),
    select: (data) => data.items,
    refetchInterval: (query) => (query.state.error ? false : SCHEDULED_POLL_MS),
  });
}

/** A write to a site's schedules or webhooks: that list and the site (which counts them) are read again. */
function useSiteMutation<T>(
  siteId: string,
  list: readonly unknown[],
  mutationFn: (input: T) => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: list }),
        queryClient.invalidateQueries({ queryKey: siteKeys.detail(siteId), exact: true }),
      ]),
  });
}

export function useCreateSchedule(siteId: string) {
  return useSiteMutation(siteId, siteKeys.schedules(siteId), (input: TScheduleInput) =>
    sendJson<ScheduleDto>(`${sitePath(siteId)}/schedules`, 'POST', input),
  );
}

/** Switches a schedule on or off; the answer replaces it in the list at once (no flash of the old state
 * before the list is read again). */
export function useSetScheduleEnabled(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      sendJson<ScheduleDto>(`${sitePath(siteId)}/schedules/${id}`, 'PATCH', { enabled }),
    onSuccess: (schedule) => {
      queryClient.setQueryData<{ items: ScheduleDto[] }>(siteKeys.schedules(siteId), (list) =>
        list ? { items: list.items.map((item) => (item.id === schedule.id ? schedule : item)) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: siteKeys.schedules(siteId) });
    },
  });
}

export function useDeleteSchedule(siteId: string) {
  return useSiteMutation(siteId, siteKeys.schedules(siteId), (id: number) =>
    sendJson<void>(`${sitePath(siteId)}/schedules/${id}`, 'DELETE'),
  );
}

export function useWebhooks(siteId: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: siteKeys.webhooks(siteId),
    queryFn: ({ signal }) => apiFetch<{ items: WebhookDto[] }>(`${sitePath(siteId)}/webhooks`, { signal }),
    select: (data) => data.items,
    // While deliveries are being sent, a webhook's last delivery and its state (paused) may change. And a
    // run's deliveries are made by its last step, just after the run reads as finished: a list read in
    // between shows none pending, so it is read again for a while after a run of the site.
    refetchInterval: (query) => {
      if (query.state.error) return false;
      const sending = query.state.data?.items.some(
        (webhook) => webhook.state === 'active' && webhook.pendingDeliveries > 0,
      );
      const site = client.getQueryData<SiteDetailDto>(siteKeys.detail(siteId));
      return sending || finishedJustNow(site) ? SCHEDULED_POLL_MS : false;
    },
  });
}

export function useCreateWebhook(siteId: string) {
  return useSiteMutation(siteId, siteKeys.webhooks(siteId), (input: TWebhookInput) =>
    sendJson<WebhookDto>(`${sitePath(siteId)}/webhooks`, 'POST', input),
  );
}

export function useDeleteWebhook(siteId: string) {
  return useSiteMutation(siteId, siteKeys.webhooks(siteId), (id: number) =>
    sendJson<void>(`${sitePath(siteId)}/webhooks/${id}`, 'DELETE'),
  );
}

/** Lifts a webhook's pause; its held deliveries are sent at once (the list and its log are read again). */
export function useResumeWebhook(siteId: string) {
  return useSiteMutation(siteId, siteKeys.webhooks(siteId), (id: number) =>
    sendJson<WebhookDto>(`${sitePath(siteId)}/webhooks/${id}/resume`, 'POST'),
  );
}

/** A webhook's delivery log, newest first, a page at a time ("Show older"); polled while a delivery is
 * still being tried. */
export function useDeliveries(siteId: string, webhookId: number) {
  return useInfiniteQuery({
    queryKey: siteKeys.deliveries(siteId, webhookId),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(DELIVERIES_PAGE_SIZE) });
      if (pageParam) params.set('cursor', pageParam);
      return apiFetch<DeliveryPage>(`${sitePath(siteId)}/webhooks/${webhookId}/deliveries?${params}`, {
        signal,
      });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.items),
    refetchInterval: (query) => {
      if (query.state.error) return false;
      return query.state.data?.pages.some((page) => page.items.some((d) => d.status === 'pending'))
        ? SCHEDULED_POLL_MS
        : false;
    },
  });
}
