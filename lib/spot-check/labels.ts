// A verdict's name as the product shows it, and a run's: in the app, the shared report and its PDF alike.

import { isActiveStatus } from '@/lib/audits/labels';
import { countText, formatCount } from '@/lib/core/format';
import type { SpotCheckRunDto } from './schema';
import type { Verdict } from './types';

const LABELS: Record<Verdict, string> = {
  confirmed: 'Confirmed',
  contradicted: 'Contradicted',
  changed: 'Changed',
  orphan_live: 'Live orphan',
  dead: 'Dead',
  recovered: 'Recovered',
  error: 'Not checked',
};

export function verdictLabel(verdict: Verdict): string {
  return LABELS[verdict];
}

/** "Run #3": runs started within a minute of each other read alike by their time, never by their number. */
export function runName(run: Pick<SpotCheckRunDto, 'number'>): string {
  return `Run #${run.number}`;
}

/** What a run asked for, in a line. */
export function describeRequest(run: Pick<SpotCheckRunDto, 'request'>): string {
  const { request } = run;
  const robots = request.ignoreRobots ? ', robots.txt ignored' : '';
  if ('sample' in request)
    return `Sample of ${formatCount(request.sample)}, seed ${request.seed}${request.includeAdd ? ', add list included' : ''}${robots}`;
  if ('ids' in request) return `${countText(request.ids.length, 'chosen row')}${robots}`;
  return `Every row of a filter${robots}`;
}

type NamedRun = Pick<SpotCheckRunDto, 'number' | 'request' | 'createdAt' | 'createdBy'>;

/** A "Compare with…" choice: the name first, so a phone's narrow select still shows what tells runs apart. */
export function compareChoiceLabel(run: NamedRun, formatTime: (iso: string) => string): string {
  return `${runName(run)} · ${describeRequest(run)} · ${formatTime(run.createdAt)} · ${run.createdBy}`;
}

/**
 * The comparison's heading line. The rows compared are those both runs took, whether or not each could
 * fetch them: a row one run could not check shows as "Not checked" on that side.
 */
export function comparisonLine(
  before: NamedRun,
  after: NamedRun,
  formatTime: (iso: string) => string,
): string {
  return `From ${runName(before)} (${formatTime(before.createdAt)}) to ${runName(after)} (${formatTime(after.createdAt)}), over the rows both runs took; a row one of them could not fetch reads “Not checked”.`;
}

/** Why Start is off: the name of a run still queued or running ("Run #4"), or null. One run at a time, so a
 * site is not fetched twice over by two reviewers' runs. */
export function startBlockedBy(runs: readonly Pick<SpotCheckRunDto, 'number' | 'status'>[]): string | null {
  const active = runs.find((run) => isActiveStatus(run.status));
  return active ? runName(active) : null;
}

function seconds(total: number): string {
  if (total >= 120 && total % 60 === 0) return `${total / 60} min`;
  return `${formatCount(total)} s`;
}

/** A run's budget in a line: "Budget: 30 min, 15,000 requests; a host is given up after 3 refused URLs
 * in a row or a Retry-After over 30 s". Null for runs started before budgets. */
export function describeBudget(run: Pick<SpotCheckRunDto, 'budget'>): string | null {
  const b = run.budget;
  if (!b) return null;
  return (
    `Budget: ${seconds(b.timeSeconds)}, ${countText(b.requests, 'request')}; a host is given up after ` +
    `${countText(b.hostRefusals, 'refused URL')} in a row or a Retry-After over ${seconds(b.maxRetryAfterSeconds)}`
  );
}
