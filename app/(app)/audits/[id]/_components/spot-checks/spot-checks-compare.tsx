'use client';
// "Compare with…" under a finished run's results: choose another finished run of the audit and see what
// changed between the two (the older is "before"): counts, the signals side by side, and the changed rows
// (verdict and status before → after, "content changed"), paged by the API's cursor.
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { formatCount } from '@/lib/core/format';
import { useSpotCheckComparison } from '@/lib/spot-check/hooks';
import { compareChoiceLabel, comparisonLine } from '@/lib/spot-check/labels';
import type { SpotCheckChange, SpotCheckCompareCounts, SpotCheckRunDto } from '@/lib/spot-check/schema';
import type { SpotCheckSummary } from '@/lib/spot-check/stats';
import styles from './spot-checks.module.css';
import { VerdictBadge } from './spot-checks-verdict';
import { share, statusText } from './spot-checks-words';
import spotItems from './spot-items.module.css';
import spotRuns from './spot-runs.module.css';

const COUNTS: { key: keyof SpotCheckCompareCounts; label: string }[] = [
  { key: 'same', label: 'unchanged' },
  { key: 'verdictChanged', label: 'verdict changed' },
  { key: 'statusChanged', label: 'status changed' },
  { key: 'contentChanged', label: 'content changed' },
  { key: 'onlyInBase', label: 'only in the earlier run' },
  { key: 'onlyInOther', label: 'only in the later run' },
];

const SIGNALS: { key: 'rotRate' | 'redirectRatio' | 'orphanShare'; label: string }[] = [
  { key: 'rotRate', label: 'Rot rate' },
  { key: 'redirectRatio', label: 'Redirect ratio' },
  { key: 'orphanShare', label: 'Orphan share' },
];

function Signals({ base, other }: { base: SpotCheckSummary | null; other: SpotCheckSummary | null }) {
  return (
    <dl className={styles['spot-shares']} data-testid="spot-compare-signals">
      {SIGNALS.map(({ key, label }) => (
        <div key={key} className={styles['spot-share']}>
          <dt>{label}</dt>
          <dd>
            <span>
              {share(base?.[key])} → <strong>{share(other?.[key])}</strong>
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const CHANGE_COLUMNS: DataColumn<SpotCheckChange>[] = [
  {
    id: 'url',
    header: 'URL',
    cellClassName: spotItems['spot-items__url'],
    cell: (change) => (
      <span className={`mono ${spotItems['spot-url']}`}>
        <BreakableUrl url={change.url} />
      </span>
    ),
  },
  {
    id: 'verdict',
    header: 'Verdict',
    cell: (change) =>
      change.before.verdict === change.after.verdict ? (
        <VerdictBadge verdict={change.after.verdict} />
      ) : (
        <span data-testid="spot-compare-verdict">
          <VerdictBadge verdict={change.before.verdict} /> → <VerdictBadge verdict={change.after.verdict} />
        </span>
      ),
  },
  {
    id: 'status',
    header: 'Status',
    cellClassName: spotItems['spot-items__nowrap'],
    cellProps: () => ({ 'data-testid': 'spot-compare-status' }),
    cell: (change) =>
      change.before.finalStatus === change.after.finalStatus
        ? statusText(change.after)
        : `${statusText(change.before)} → ${statusText(change.after)}`,
  },
  { id: 'content', header: 'Content', cell: (change) => (change.contentChanged ? 'Content changed' : '—') },
];

function Changes({ changes }: { changes: SpotCheckChange[] }) {
  if (changes.length === 0) return <p className="muted">No row both runs checked has changed.</p>;
  return (
    <DataTable
      columns={CHANGE_COLUMNS}
      rows={changes}
      rowKey={(change) => change.findingId}
      rowProps={() => ({ 'data-testid': 'spot-compare-change' })}
      className={spotItems['spot-items']}
      wrapClassName={spotItems['spot-items-wrap']}
      testId="spot-compare-changes"
    />
  );
}

function Comparison({ auditId, base, other }: { auditId: string; base: string; other: string }) {
  const pages = useCursorStack();
  const comparison = useSpotCheckComparison(auditId, base, other, pages.cursor);
  const formatTime = useDateTimeFormat();
  if (comparison.isError)
    return <Alert title="Could not compare these runs">{comparison.error.message}</Alert>;
  const data = comparison.data;
  if (!data) return <p className="muted">Comparing…</p>;
  return (
    <div className="stack" data-testid="spot-compare">
      <p className="small muted" data-testid="spot-compare-runs">
        {comparisonLine(data.base, data.other, formatTime)}
      </p>
      <ul className={styles['spot-verdicts']} aria-label="What changed">
        {COUNTS.map(({ key, label }) => (
          <li key={key} className={styles['spot-verdict']} data-testid={`spot-compare-${key}`}>
            <span className={styles['spot-verdict__count']}>{formatCount(data.counts[key])}</span> {label}
          </li>
        ))}
      </ul>
      <Signals base={data.base.summary} other={data.other.summary} />
      <Changes changes={data.changes} />
      {pages.page > 1 || data.nextCursor ? (
        <CursorPager stack={pages} nextCursor={data.nextCursor} busy={comparison.isPlaceholderData} />
      ) : null}
    </div>
  );
}

/** The compare choice for `run` (finished), over the audit's other finished runs. */
export function SpotChecksCompare({
  auditId,
  run,
  runs,
}: {
  auditId: string;
  run: SpotCheckRunDto;
  runs: SpotCheckRunDto[];
}) {
  const selectId = useId();
  const [otherId, setOtherId] = useState('');
  const formatTime = useDateTimeFormat();
  const others = runs.filter((r) => r.id !== run.id && r.summary !== null);
  if (others.length === 0) return null;
  const other = others.find((r) => r.id === otherId);
  // The older run is "before", whichever was chosen first.
  const [before, after] = other && other.createdAt < run.createdAt ? [other, run] : [run, other];
  return (
    <section className="stack" aria-labelledby={`${selectId}-heading`}>
      <h3 id={`${selectId}-heading`}>Compare runs</h3>
      {/* The form's field grid: the choice keeps a readable width instead of spanning a wide screen. */}
      <div className={spotRuns['spot-form__fields']}>
        <div className="field">
          <label htmlFor={selectId} className="field__label">
            Compare with…
          </label>
          <select
            id={selectId}
            className="select"
            value={otherId}
            onChange={(e) => setOtherId(e.target.value)}
          >
            <option value="">Choose another finished run</option>
            {others.map((r) => (
              <option key={r.id} value={r.id}>
                {compareChoiceLabel(r, formatTime)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {other && after ? (
        <Comparison key={`${before.id}:${after.id}`} auditId={auditId} base={before.id} other={after.id} />
      ) : null}
    </section>
  );
}
