// A finished spot-check's summary: counts per verdict, the stale-crawl warning, and the audit's signals
// (rot rate, redirect ratio, orphan share) each with its 95 % interval and the rows it is taken over.
import { formatCount } from '@/lib/core/format';
import { verdictLabel } from '@/lib/spot-check/labels';
import type { Proportion, SpotCheckSummary } from '@/lib/spot-check/stats';
import { VERDICTS } from '@/lib/spot-check/stats';
import styles from './spot-checks.module.css';

function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(value > 0 && value < 0.1 ? 1 : 0)} %`;
}

function Share({ name, share, hint }: { name: string; share: Proportion; hint: string }) {
  return (
    <div className={styles['spot-share']} data-testid="spot-share">
      <dt>{name}</dt>
      <dd>
        <strong>{percent(share.value)}</strong>{' '}
        <span className="muted small">
          {share.n === 0
            ? 'nothing measured (n = 0)'
            : `95 % interval ${percent(share.low)}–${percent(share.high)}, n = ${formatCount(share.n)}`}
        </span>
        {share.value !== null && share.low !== null && share.high !== null ? (
          <span className={styles['spot-share__bar']} aria-hidden="true">
            <span
              className={styles['spot-share__range']}
              style={{ left: `${share.low * 100}%`, width: `${(share.high - share.low) * 100}%` }}
            />
            <span className={styles['spot-share__value']} style={{ left: `${share.value * 100}%` }} />
          </span>
        ) : null}
        <span className="field__hint">{hint}</span>
      </dd>
    </div>
  );
}

export function SpotChecksSummary({ summary }: { summary: SpotCheckSummary }) {
  return (
    <div className="stack">
      {summary.staleCrawl ? (
        <div className={`alert alert--warning ${styles['spot-stale']}`} role="alert" data-testid="spot-stale">
          <strong>The crawl looks stale</strong>
          <div>{summary.staleCrawl.message}</div>
        </div>
      ) : null}
      <ul className={styles['spot-verdicts']} aria-label="Verdicts">
        {VERDICTS.map((verdict) => (
          <li
            key={verdict}
            className={`${styles['spot-verdict']} ${styles[`spot-verdict--${verdict}`] ?? ''}`}
            data-testid={`spot-count-${verdict}`}
          >
            <span className={styles['spot-verdict__count']}>{formatCount(summary.byVerdict[verdict])}</span>{' '}
            {verdictLabel(verdict)}
          </li>
        ))}
      </ul>
      <dl className={styles['spot-shares']}>
        <Share
          name="Rot rate"
          share={summary.rotRate}
          hint="Declared URLs ending in a 4xx, of those that answered."
        />
        <Share
          name="Redirect ratio"
          share={summary.redirectRatio}
          hint="Declared URLs whose first answer is a redirect."
        />
        <Share
          name="Orphan share"
          share={summary.orphanShare}
          hint="URLs the crawl never fetched that are live pages (link them, do not prune)."
        />
      </dl>
    </div>
  );
}
