// What a client sends to start a spot-check and what the API answers about runs and their items
//. Isomorphic: zod schemas and DTO types only.
import { z } from 'zod';
import { INT4_MAX } from '@/lib/core/text';
import { ZFindingFilter } from '@/lib/findings/schema';
import type { RunStatus } from '@/lib/runs/phases';
import { DEFAULT_SAMPLE_SIZE } from './sample';
import type { SpotCheckSummary } from './stats';
import type { Hop, LiveError, Verdict } from './types';

/** The most rows one run checks, whatever SPOT_CHECK_MAX_ROWS says (a run holds its results in memory). */
export const SPOT_CHECK_ROWS_CEILING = 50_000;

const findingId = z.number().int().positive().max(INT4_MAX);

/**
 * `{ sample, seed? }` (nothing at all: a sample of 50), `{ ids }` or `{ filter }`, each with an optional
 * `ignoreRobots: true` (the reviewer ticked "ignore robots.txt"). A sample may include the add list.
 */
export const ZSpotCheckRequest = z
  .object({
    sample: z.number().int().min(1).max(SPOT_CHECK_ROWS_CEILING).optional(),
    seed: z.number().int().min(0).max(INT4_MAX).optional(),
    /** A sample takes the prune and held lists; with this, the add list too. */
    includeAdd: z.boolean().optional(),
    ids: z.array(findingId).min(1).max(SPOT_CHECK_ROWS_CEILING).optional(),
    filter: ZFindingFilter.optional(),
    ignoreRobots: z.boolean().optional(),
  })
  .strict()
  .refine((v) => [v.sample, v.ids, v.filter].filter((x) => x !== undefined).length <= 1, {
    message: 'give one of sample, ids or filter',
  })
  .refine((v) => (v.seed === undefined && v.includeAdd === undefined) || v.ids === undefined, {
    message: 'seed and includeAdd go with a sample',
  })
  .refine((v) => (v.seed === undefined && v.includeAdd === undefined) || v.filter === undefined, {
    message: 'seed and includeAdd go with a sample',
  });
export type TSpotCheckRequest = z.infer<typeof ZSpotCheckRequest>;

/** The optional body of POST …/{runId}/retry: `{ only: "errors" }` checks again only the rows that run
 * could not check; without it the whole request is repeated (same seed, ids or filter). */
export const ZSpotCheckRetry = z.object({ only: z.enum(['errors']).optional() }).strict();
export type TSpotCheckRetry = z.infer<typeof ZSpotCheckRetry>;

/** What a run stores as its request: exactly one way of choosing rows, the seed filled in. */
export type StoredSpotCheckRequest = (
  | { sample: number; seed: number; includeAdd: boolean }
  | { ids: number[] }
  | { filter: z.infer<typeof ZFindingFilter> }
) & { ignoreRobots: boolean };

/** The request as stored: a sample without a seed gets one, so the run can be repeated. */
export function storedRequestOf(input: TSpotCheckRequest, randomSeed: () => number): StoredSpotCheckRequest {
  const ignoreRobots = input.ignoreRobots === true;
  if (input.ids) return { ids: [...new Set(input.ids)], ignoreRobots };
  if (input.filter) return { filter: input.filter, ignoreRobots };
  return {
    sample: input.sample ?? DEFAULT_SAMPLE_SIZE,
    seed: input.seed ?? randomSeed(),
    includeAdd: input.includeAdd === true,
    ignoreRobots,
  };
}

/** What a run may spend, fixed when it starts (lib/spot-check/budget.ts has the defaults). */
export interface SpotCheckBudget {
  /** Wall-clock seconds of checking; rows not reached by then end as errors. */
  timeSeconds: number;
  /** Requests sent (pages, redirect hops, retries, probes, robots.txt); rows beyond end as errors. */
  requests: number;
  /** 429/503 answers in a row after which a host is given up (its rows end as errors). */
  hostRefusals: number;
  /** A Retry-After longer than this gives the host up at once. */
  maxRetryAfterSeconds: number;
}

export interface SpotCheckRunDto {
  id: string;
  auditId: string;
  status: RunStatus;
  phase: string;
  phaseLabel: string;
  progress: { done: number; total: number };
  request: StoredSpotCheckRequest;
  /** Null for runs started before runs had budgets. */
  budget: SpotCheckBudget | null;
  summary: SpotCheckSummary | null;
  errorMessage: string | null;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
  cancelledBy: string | null;
  /** The run this one was started from by a retry, or null. */
  retryOf: string | null;
  /** Its place among the audit's runs in creation order (1 = the first): runs started within the same
   * minute read alike by their time, so the UI names them "Run #n". */
  number: number;
}

export interface SpotCheckItemDto {
  findingId: number;
  list: string;
  reason: string;
  url: string;
  chain: Hop[];
  finalUrl: string;
  finalStatus: number | null;
  contentType: string | null;
  verdict: Verdict;
  liveReason: string | null;
  explanation: string;
  noindex: boolean;
  canonical: string | null;
  title: string | null;
  textHash: string | null;
  ms: number;
  checkedAt: string;
  error: LiveError | null;
}

export interface SpotCheckRunPage extends SpotCheckRunDto {
  items: SpotCheckItemDto[];
  /** The last finding id of this page, for `cursor`; null on the last page. */
  nextCursor: string | null;
}

/** One side of a compared row: what that run found for the finding. */
export interface SpotCheckSide {
  verdict: Verdict;
  finalStatus: number | null;
  liveReason: string | null;
}

/** A finding both runs checked whose verdict, final status or page text differs between them. */
export interface SpotCheckChange {
  findingId: number;
  url: string;
  before: SpotCheckSide;
  after: SpotCheckSide;
  /** Both answered 200 and the visible text's hash differs. */
  contentChanged: boolean;
}

/** Counts over the findings of two runs. A row whose verdict and status both changed counts in both;
 * `same` counts rows both checked where none of verdict, status and content changed. */
export interface SpotCheckCompareCounts {
  same: number;
  verdictChanged: number;
  statusChanged: number;
  contentChanged: number;
  onlyInBase: number;
  onlyInOther: number;
}

/** GET …/{runId}/compare/{otherRunId}: both runs (their summaries side by side), counts and a page of
 * the changed rows in finding-id order. */
export interface SpotCheckComparison {
  base: SpotCheckRunDto;
  other: SpotCheckRunDto;
  counts: SpotCheckCompareCounts;
  changes: SpotCheckChange[];
  /** The last finding id of this page, for `cursor`; null on the last page. */
  nextCursor: string | null;
}
