// Spot-checks on behalf of a reviewer (start or retry: the request checked, the run created and queued;
// compare two runs) and the run's two step handlers (select, check), which only do the work and say what comes next (lib/runs).
import { randomInt, randomUUID } from 'node:crypto';
import { isActiveStatus } from '@/lib/audits/labels';
import { AppError } from '@/lib/core/errors';
import { INT4_MAX } from '@/lib/core/text';
import { intEnv } from '@/lib/db/config';
import type { FindingList } from '@/lib/findings/schema';
import { reconciledAudit } from '@/lib/review/data';
import type { SpotCheckPhase, SpotCheckStep } from '@/lib/runs/phases';
import { cancelRunFor, startRun } from '@/lib/runs/service';
import type { StepHandler } from '@/lib/runs/types';
import { ACTIVE_LIMIT_RETRY_AFTER, maxActiveRunsPerUser, spotCheckBudget } from './budget';
import {
  compareChanges,
  compareCounts,
  countFilteredUpTo,
  errorFindingIds,
  existingIds,
  filteredIds,
  findingCountsByList,
  findingsToCheck,
  getSpotCheck,
  idsNotInAudit,
  runToCheck,
  sampleFindings,
} from './data';
import {
  type CheckedRow,
  insertSpotCheckRun,
  insertSpotCheckRunWithin,
  storeCheckResults,
  storeSelection,
} from './mutations';
import { runChecks, sharedLanes } from './politeness';
import { spotCheckRun } from './run';
import { allocateSample } from './sample';
import {
  SPOT_CHECK_ROWS_CEILING,
  type SpotCheckComparison,
  type StoredSpotCheckRequest,
  storedRequestOf,
  type TSpotCheckRequest,
  type TSpotCheckRetry,
} from './schema';
import { hostProbeOf, probeUrlFor } from './soft404';
import { summarize } from './stats';
import type { HostProbe } from './types';
import { verdictOf } from './verdict';

/** The most rows one run checks (SPOT_CHECK_MAX_ROWS, default 5,000): a filter over it is refused. */
function maxRows(): number {
  return Math.min(SPOT_CHECK_ROWS_CEILING, Math.max(1, intEnv('SPOT_CHECK_MAX_ROWS', 5_000)));
}

/** Who starts a run: a signed-in user (counted against the per-user limit) or a script, by name alone. */
export type Starter = string | { id: string; name: string };

/** Checks the request against the audit, creates the run and queues its first step; returns its id. */
export async function startSpotCheck(
  auditId: string,
  input: TSpotCheckRequest,
  by: Starter,
): Promise<string> {
  await reconciledAudit(auditId);
  return createSpotCheck(
    auditId,
    storedRequestOf(input, () => randomInt(0, INT4_MAX)),
    by,
    null,
  );
}

/** A stored request checked against the audit as it is now (its rows, SPOT_CHECK_MAX_ROWS), then run. */
async function createSpotCheck(
  auditId: string,
  request: StoredSpotCheckRequest,
  by: Starter,
  retryOf: string | null,
): Promise<string> {
  const cap = maxRows();
  if ('ids' in request) {
    if (request.ids.length > cap) {
      throw new AppError(
        'validation_failed',
        `A spot-check takes at most ${cap} rows; ${request.ids.length} were given`,
      );
    }
    const strangers = await idsNotInAudit(auditId, request.ids);
    if (strangers.length > 0) {
      throw new AppError(
        'validation_failed',
        `ids are not findings of this audit: ${strangers.slice(0, 10).join(', ')}${strangers.length > 10 ? ', …' : ''}`,
      );
    }
  } else if ('filter' in request) {
    const n = await countFilteredUpTo(auditId, request.filter, cap);
    if (n === 0) throw new AppError('validation_failed', 'No rows match this filter');
    if (n > cap) {
      throw new AppError(
        'validation_failed',
        `More than ${cap} rows match this filter (SPOT_CHECK_MAX_ROWS); narrow it or check a sample`,
      );
    }
  } else if (request.sample > cap) {
    throw new AppError('validation_failed', `A sample can be at most ${cap} rows`);
  }
  const id = randomUUID();
  const budget = spotCheckBudget();
  if (typeof by === 'string') {
    await insertSpotCheckRun(id, auditId, request, by, retryOf, { budget });
  } else {
    const limit = maxActiveRunsPerUser();
    const active = await insertSpotCheckRunWithin(limit, id, auditId, request, by, retryOf, budget);
    if (active !== null) {
      throw new AppError(
        'too_many_requests',
        `You have ${active} spot-checks waiting or running, the most one user may have at once ` +
          `(SPOT_CHECK_MAX_ACTIVE_PER_USER = ${limit}); wait for one to finish or cancel one, then start this one`,
        ACTIVE_LIMIT_RETRY_AFTER,
      );
    }
  }
  await startRun(spotCheckRun, id);
  return id;
}

/**
 * Starts a new run from an ended one (runs are history: the source stays as it was). The whole request is
 * repeated, seed and robots.txt choice included, so a sample picks the same rows while the findings are
 * the same; with `only: 'errors'` just the rows the source could not check, as chosen rows. A run still
 * queued or running is refused: cancel it first.
 */
export async function retrySpotCheck(
  auditId: string,
  runId: string,
  options: TSpotCheckRetry,
  by: Starter,
): Promise<string> {
  await reconciledAudit(auditId);
  const source = await getSpotCheck(auditId, runId);
  if (!source) throw new AppError('not_found', 'No such spot-check');
  if (isActiveStatus(source.status)) {
    throw new AppError('conflict', 'This spot-check is still running; cancel it first to start it again');
  }
  if (options.only !== 'errors') return createSpotCheck(auditId, source.request, by, source.id);
  if (source.status !== 'succeeded' && source.status !== 'partial') {
    throw new AppError(
      'conflict',
      `This spot-check ended without results (${source.status}), so it has no rows it could not check; run it again whole`,
    );
  }
  const ids = await errorFindingIds(source.id);
  if (ids.length === 0) {
    throw new AppError(
      'validation_failed',
      'This spot-check checked every row; there are no errors to check again',
    );
  }
  return createSpotCheck(auditId, { ids, ignoreRobots: source.request.ignoreRobots }, by, source.id);
}

/** What changed between two runs of the audit, over the findings both checked; 404 when either is not
 * one of the audit's runs. */
export async function compareSpotChecks(
  auditId: string,
  baseId: string,
  otherId: string,
  page: { limit: number; cursor: number | undefined },
): Promise<SpotCheckComparison> {
  const [base, other] = await Promise.all([getSpotCheck(auditId, baseId), getSpotCheck(auditId, otherId)]);
  if (!base || !other) throw new AppError('not_found', 'No such spot-check');
  const [counts, changes] = await Promise.all([
    compareCounts(base.id, other.id),
    compareChanges(base.id, other.id, page.limit, page.cursor),
  ]);
  return { base, other, counts, ...changes };
}

/** A seeded sample over the prune and held lists (and the add list when asked), split across the lists
 * as a sample is split across reasons (every list present gets a row), then stratified by reason in each. */
async function sampleIds(auditId: string, request: Extract<StoredSpotCheckRequest, { sample: number }>) {
  const counts = await findingCountsByList(auditId);
  const lists: FindingList[] = request.includeAdd ? ['prune', 'held', 'add'] : ['prune', 'held'];
  const quotas = allocateSample(Object.fromEntries(lists.map((l) => [l, counts[l] ?? 0])), request.sample);
  const ids: number[] = [];
  for (const list of lists) {
    const quota = quotas[list] ?? 0;
    if (quota > 0) {
      for (const row of await sampleFindings(auditId, { list }, quota, request.seed)) ids.push(row.id);
    }
  }
  return ids.sort((a, b) => a - b);
}

export const selectStep: StepHandler<SpotCheckStep, SpotCheckPhase> = async ({ run }) => {
  const found = await runToCheck(run.id);
  if (!found) throw new AppError('not_found', 'No such spot-check');
  const { auditId, request } = found;
  const ids =
    'ids' in request
      ? await existingIds(auditId, request.ids)
      : 'filter' in request
        ? // Counted when the run was started; decisions since may have added rows: the first ones by id.
          await filteredIds(auditId, request.filter, maxRows())
        : await sampleIds(auditId, request);
  return { next: 'check', write: (client) => storeSelection(client, run.id, ids) };
};

export const checkStep: StepHandler<SpotCheckStep, SpotCheckPhase> = async ({ run, progress, signal }) => {
  const found = await runToCheck(run.id);
  if (!found) throw new AppError('not_found', 'No such spot-check');
  const findings = await findingsToCheck(found.auditId, found.findingIds ?? []);
  // One probe per host, checked in the same polite batch as the rows (its robots.txt and limits).
  const origins = [...new Set(findings.flatMap((f) => originOf(f.url) ?? []))];
  const probeUrls = origins.map(probeUrlFor);
  const urls = [...findings.map((f) => f.url), ...probeUrls];
  // "n of N" counts the rows the reviewer asked about: the probes ride along unseen, else a run of 4 rows
  // read "0 of 4" (the select step's total) then "0 of 5" once this step began.
  let rowsDone = 0;
  await progress.update('checking', 0, findings.length);
  // Runs started before budgets get today's.
  const budget = found.budget ?? spotCheckBudget();
  const results = await runChecks(urls, {
    concurrency: Math.max(1, intEnv('SPOT_CHECK_CONCURRENCY', 20)),
    perHost: Math.max(1, intEnv('SPOT_CHECK_PER_HOST', 2)),
    hostDelayMs: intEnv('SPOT_CHECK_HOST_DELAY_MS', 0),
    ignoreRobots: found.request.ignoreRobots,
    signal,
    // Shared with the other runs this worker checks at the same time: one host, one set of limits.
    lanes: sharedLanes,
    budget: {
      timeMs: budget.timeSeconds * 1000,
      // Counted from the run's start, so a check step run again after its worker died does not get it anew.
      startedAt: found.startedAt?.getTime(),
      requests: budget.requests,
      hostRefusals: budget.hostRefusals,
    },
    check: { maxRetryAfterMs: budget.maxRetryAfterSeconds * 1000 },
    // Heartbeats on progress; a cancelled run is noticed by the signal, which stops runChecks.
    onProgress: ({ index }) => {
      if (index >= findings.length) return;
      rowsDone += 1;
      void progress.update('checking', rowsDone, findings.length).catch(() => {});
    },
  });
  const probes = new Map<string, HostProbe>();
  origins.forEach((origin, i) => {
    const live = results[findings.length + i];
    if (live) probes.set(origin, hostProbeOf(origin, live));
  });
  const rows: CheckedRow[] = findings.map((finding, i) => {
    const live = results[i] as (typeof results)[number];
    const probe = probes.get(originOf(finding.url) ?? '') ?? null;
    const { verdict, liveReason, explanation } = verdictOf(finding, live, probe, {
      profile: found.normalization,
    });
    return {
      findingId: finding.id,
      list: finding.list,
      reason: finding.reason,
      live,
      verdict,
      liveReason,
      explanation,
    };
  });
  const summary = summarize(
    rows.map((r) => ({
      list: r.list as FindingList,
      reason: r.reason,
      verdict: r.verdict,
      chain: r.live.chain,
      finalStatus: r.live.finalStatus,
    })),
  );
  const errors = summary.byVerdict.error;
  return {
    outcome: errors > 0 ? 'partial' : 'succeeded',
    message: errors > 0 ? `${errors} of ${rows.length} URLs could not be checked${whyNot(rows)}` : null,
    write: (client) => storeCheckResults(client, run.id, rows, [...probes.values()], summary),
  };
};

/** What the budget cost the run, for its message: rows the budget or a given-up host left unchecked. */
function whyNot(rows: readonly CheckedRow[]): string {
  const count = (code: string) => rows.filter((r) => r.live.error?.code === code).length;
  const parts: string[] = [];
  const spent = rows.find((r) => r.live.error?.code === 'budget_spent')?.live.error;
  if (spent)
    parts.push(
      `${count('budget_spent')} because ${spent.message.replace(/ before this URL was checked$/, '')}`,
    );
  const refused = new Set(
    rows.flatMap((r) => (r.live.error?.code === 'host_refused' ? [hostOf(r.live.url)] : [])),
  );
  if (refused.size > 0) {
    const hosts = [...refused].slice(0, 3).join(', ') + (refused.size > 3 ? ', …' : '');
    parts.push(
      `${count('host_refused')} because the run gave up ${refused.size === 1 ? '' : 'the hosts '}${hosts}`,
    );
  }
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Cancels a queued or running spot-check; 409 when it has ended. */
export function cancelSpotCheck(runId: string, by: string): Promise<void> {
  return cancelRunFor(spotCheckRun, runId, by);
}
