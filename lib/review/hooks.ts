// TanStack Query hooks for the findings API (list, one finding, per-file and per-reason counts, decisions
// and their preview). Decisions are recorded under the signed-in user's name, server-side.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/client/api';
import { auditKeys } from '@/lib/client/audit-keys';
import { type FindingView, PAGE_SIZE, toSearchParams } from '@/lib/findings/format';
import { decisionPreviewHref, reasonCountsHref } from '@/lib/findings/links';
import type {
  Decision,
  DecisionPreviewDto,
  DecisionsRecordedDto,
  FindingDetailDto,
  FindingDto,
  FindingPage,
  FindingsByFileDto,
  ReasonCountsDto,
  TFindingFilter,
} from '@/lib/findings/schema';

const base = (auditId: string) => `/api/v1/audits/${encodeURIComponent(auditId)}`;

export const findingKeys = {
  all: (auditId: string) => ['findings', auditId] as const,
  lists: (auditId: string) => ['findings', auditId, 'list'] as const,
  list: (auditId: string, view: FindingView) => ['findings', auditId, 'list', view] as const,
  details: (auditId: string) => ['findings', auditId, 'detail'] as const,
  detail: (auditId: string, findingId: number) => ['findings', auditId, 'detail', findingId] as const,
  byFile: (auditId: string) => ['findings', auditId, 'by-file'] as const,
  /** Counts that decisions change: reason counts (a decision filter narrows them) and previews. */
  counts: (auditId: string) => ['findings', auditId, 'counts'] as const,
  reasons: (auditId: string, filter: Omit<TFindingFilter, 'reason'>) =>
    ['findings', auditId, 'counts', 'reasons', filter] as const,
  preview: (auditId: string, preview: PreviewInput) =>
    ['findings', auditId, 'counts', 'preview', preview] as const,
};

/** One keyset page of findings for the view (its cursor included); the previous page stays on screen
 * while the next one loads. */
export function useFindings(auditId: string, view: FindingView, { enabled = true } = {}) {
  return useQuery({
    queryKey: findingKeys.list(auditId, view),
    queryFn: ({ signal }) => {
      const params = toSearchParams(view);
      params.set('limit', String(PAGE_SIZE));
      return apiFetch<FindingPage>(`${base(auditId)}/findings?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useFinding(auditId: string, findingId: number | null) {
  return useQuery({
    queryKey: findingKeys.detail(auditId, findingId ?? 0),
    queryFn: ({ signal }) => apiFetch<FindingDetailDto>(`${base(auditId)}/findings/${findingId}`, { signal }),
    enabled: findingId !== null,
  });
}

export function useFindingsByFile(auditId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: findingKeys.byFile(auditId),
    queryFn: ({ signal }) => apiFetch<FindingsByFileDto>(`${base(auditId)}/findings/by-file`, { signal }),
    select: (data) => data.items,
    enabled,
    staleTime: 60_000,
  });
}

/** The rows of a list per reason under every other filter of the view (for the reason chips); the
 * previous counts stay on screen while new ones load. */
export function useReasonCounts(auditId: string, filter: TFindingFilter, { enabled = true } = {}) {
  const { reason: _reason, ...rest } = filter;
  return useQuery({
    queryKey: findingKeys.reasons(auditId, rest),
    queryFn: ({ signal }) => apiFetch<ReasonCountsDto>(reasonCountsHref(auditId, rest), { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export interface PreviewInput {
  decision: Decision;
  filter: TFindingFilter;
  override: boolean;
}

/** What a decision by filter would change, skip and find already set, changing nothing. Always asked
 * afresh (staleTime 0), since another reviewer may have decided rows since. */
export function useDecisionPreview(auditId: string, input: PreviewInput | null) {
  return useQuery({
    queryKey: findingKeys.preview(
      auditId,
      input ?? { decision: 'pending', filter: { list: 'prune' }, override: false },
    ),
    queryFn: ({ signal }) => {
      if (!input) throw new Error('no decision to preview');
      return apiFetch<DecisionPreviewDto>(
        decisionPreviewHref(auditId, input.decision, input.filter, input.override),
        { signal },
      );
    },
    enabled: input !== null,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export type DecisionTarget = { ids: number[] } | { filter: TFindingFilter };

export interface DecideInput {
  decision: Decision;
  target: DecisionTarget;
  /** A decision by filter changes only pending rows unless this is true (ids change whatever they hold). */
  override?: boolean;
  note?: string;
}

type PageSnapshot = [readonly unknown[], FindingPage | undefined][];

/** The page as it will look after the decision: rows that leave a decision-filtered view disappear now,
 * so keyboard review lands on the next row instead of waiting for the refetch. */
function applyDecision(
  page: FindingPage,
  ids: Set<number>,
  decision: Decision,
  only?: Decision,
): FindingPage {
  const leaves = (item: FindingDto) => ids.has(item.id) && only !== undefined && only !== decision;
  const items = page.items.filter((item) => !leaves(item));
  return {
    ...page,
    total: Math.max(0, page.total - (page.items.length - items.length)),
    items: items.map((item) => (ids.has(item.id) ? { ...item, decision } : item)),
  };
}

/** Records a decision for some ids or for every row matching a filter, answering with how many rows
 * changed, were left alone (decided rows a filter decision skips) and already had it. Rows chosen by id
 * change on screen at once; everything is refetched (lists, counts, the audit's summary) when the server
 * answers. */
export function useDecide(auditId: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['findings', auditId, 'decide'];
  return useMutation({
    mutationKey,
    mutationFn: ({ decision, target, override, note }: DecideInput) =>
      apiFetch<DecisionsRecordedDto>(`${base(auditId)}/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          decision,
          ...target,
          ...('filter' in target && override ? { override: true } : {}),
          ...(note ? { note } : {}),
        }),
      }),
    onMutate: async ({ decision, target }): Promise<{ snapshot: PageSnapshot }> => {
      if (!('ids' in target)) return { snapshot: [] };
      await queryClient.cancelQueries({ queryKey: findingKeys.lists(auditId) });
      const snapshot = queryClient.getQueriesData<FindingPage>({ queryKey: findingKeys.lists(auditId) });
      const ids = new Set(target.ids);
      for (const [key, page] of snapshot) {
        if (!page) continue;
        const view = key[3] as FindingView | undefined;
        queryClient.setQueryData(key, applyDecision(page, ids, decision, view?.decision));
      }
      return { snapshot };
    },
    onError: (_error, _input, context) => {
      for (const [key, page] of context?.snapshot ?? []) queryClient.setQueryData(key, page);
    },
    // During a burst of keyboard decisions only the last one refetches, so an early refetch cannot
    // briefly undo the later rows' optimistic state.
    onSettled: () =>
      queryClient.isMutating({ mutationKey }) > 1
        ? undefined
        : Promise.all([
            // Per-file counts do not depend on decisions: only lists, details and the audit's counts change.
            queryClient.invalidateQueries({ queryKey: findingKeys.lists(auditId) }),
            queryClient.invalidateQueries({ queryKey: findingKeys.details(auditId) }),
            queryClient.invalidateQueries({ queryKey: findingKeys.counts(auditId) }),
            queryClient.invalidateQueries({ queryKey: auditKeys.detail(auditId), exact: true }),
          ]),
  });
}
