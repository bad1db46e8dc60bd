'use client';
// The audit page's first data, read by the server while it renders the page (page-data.ts) and put in the
// query cache before the first render, so the summary is in the HTML and the browser makes no request
// for it: one round trip instead of audit → findings overview → first page one after another. The keys
// are the hooks' own, so the hooks find the data and poll or refetch as they always do. What the seed
// leaves out (the sitemap files, a tab's own reads) is asked for at once when the page mounts, in parallel.
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { auditKeys } from '@/lib/audits/hooks';
import type { AuditDto } from '@/lib/audits/schema';
import type { FindingView } from '@/lib/findings/format';
import type { FindingPage, FindingsByFileDto, ReasonCountsDto, TFindingFilter } from '@/lib/findings/schema';
import { findingKeys } from '@/lib/review/hooks';
import { spotCheckKeys } from '@/lib/spot-check/hooks';
import type { SpotCheckRunDto } from '@/lib/spot-check/schema';

/** What the selected tab's first screen reads, as the API would have answered it (JSON values). */
export interface AuditPageSeed {
  /** When the server read it (ms since the epoch): the queries' age. */
  at: number;
  audit: AuditDto;
  /** The summary's per-file chart (reconciled audits). */
  byFile?: FindingsByFileDto;
  /** The Review tab's first page and reason chips, for the view the URL names. */
  review?: {
    view: FindingView;
    page: FindingPage;
    reasonFilter: Omit<TFindingFilter, 'reason'>;
    reasons: ReasonCountsDto;
  };
  /** Spot-check runs (the review's live verdicts and the Spot-checks tab). */
  spotChecks?: { runs: SpotCheckRunDto[] };
}

/** Puts the seed in the cache once, on the first render (server and browser alike); data already cached
 * and newer (a client-side navigation back to the page) is kept. The seed counts as read now: it was read
 * as the page was sent, and dating it by the server's clock would make it stale on arrival when loading
 * the scripts took longer than the queries' staleTime. */
export function useAuditSeed(id: string, seed: AuditPageSeed | undefined) {
  const queryClient = useQueryClient();
  useState(() => {
    if (!seed) return;
    const put = (key: QueryKey, data: unknown) => {
      const state = queryClient.getQueryState(key);
      if (state && state.dataUpdatedAt >= seed.at) return;
      queryClient.setQueryData(key, data, { updatedAt: Date.now() });
    };
    put(auditKeys.detail(id), seed.audit);
    if (seed.byFile) put(findingKeys.byFile(id), seed.byFile);
    if (seed.review) {
      put(findingKeys.list(id, seed.review.view), seed.review.page);
      put(findingKeys.reasons(id, seed.review.reasonFilter), seed.review.reasons);
    }
    if (seed.spotChecks) put(spotCheckKeys.list(id), seed.spotChecks);
  });
}
