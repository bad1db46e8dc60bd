'use client';
// "Compare with…" under a finished run's results: choose another finished run of the audit and see what
// changed between the two (the older is "before"): counts, the signals side by side, and the changed rows
// (verdict and status before → after, "content changed"), paged by the API's cursor.
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { formatCount } from '@/lib/audits/format';
import { useSpotCheckComparison } from '@/lib/spot-check/hooks';
import { compareChoiceLabel, comparisonLine } from '@/lib/spot-check/labels';
import type {
  SpotCheckChange,
  SpotCheckCompareCounts,
  SpotCheckRunDto,
  SpotCheckSide,
} from '@/lib/spot-check/schema';
import type { Proportion, SpotCheckSummary } from '@/lib/spot-check/stats';
import styles from './spot-checks.module.css';
import { VerdictBadge } from './spot-checks-verdict';

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

function share(p: Proportion | undefined): string {
  if (!p || p.value === null) return '—';
  return `${(p.value * 100).toFixed(p.value > 0 && p.value < 0.1 ? 1 : 0)} % (n = ${formatCount(p.n)})`;
}

function statusText(side: SpotCheckSide): string {
  return side.finalStatus === null ? 'no answer' : String(side.finalStatus);
}

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

function Changes({ changes }: { changes: SpotCheckChange[] }) {
  if (changes.length === 0) return <p className="muted">No row both runs checked has changed.</p>;
  return (
    <div className="spot-items-wrap">
      <table className="spot-items" data-testid="spot-compare-changes">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Verdict</th>
            <th scope="col">Status</th>
            <th scope="col">Content</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.findingId} data-testid="spot-compare-change">
              <td data-label="URL" className="spot-items__url">
                <span className="mono spot-url">
                  <BreakableUrl url={change.url} />
                </span>
              </td>
              <td data-label="Verdict">
                {change.before.verdict === change.after.verdict ? (
                  <VerdictBadge verdict={change.after.verdict} />
                ) : (
                  <span data-testid="spot-compare-verdict">
                    <VerdictBadge verdict={change.before.verdict} /> →{' '}
                    <VerdictBadge verdict={change.after.verdict} />
                  </span>
                )}
              </td>
              <td data-label="Status" className="spot-items__nowrap" data-testid="spot-compare-status">
                {change.before.finalStatus === change.after.finalStatus
                  ? statusText(change.after)
                  : `${statusText(change.before)} → ${statusText(change.after)}`}
              </td>
              <td data-label="Content">{change.contentChanged ? 'Content changed' : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
            <span className="spot-verdict__count">{formatCount(data.counts[key])}</span> {label}
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
      <div className="spot-form__fields">
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
