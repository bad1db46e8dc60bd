'use client';
// The Overview's trends: declared URLs of complete runs, prune and add per run by reason, and the Search
// Console gap and the spot-check rot rate when some run has them. lib/sites/trends.ts decides the data.
import {
  DeclaredUrlsChart,
  ListByReasonChart,
  PercentTrendChart,
} from '@/components/charts/site-trend-charts';
import { runTimeLabels } from '@/lib/sites/run-times';
import type { SiteRunDto } from '@/lib/sites/schema';
import { prepareSiteTrends } from '@/lib/sites/trends';
import styles from './site-trends.module.css';

export function SiteTrends({ runs }: { runs: SiteRunDto[] }) {
  if (runs.length === 0) return null;
  // Without the year, short enough for a phone's axis; the page is rendered in the browser only, so the
  // reader's zone is safe. Distinct across all runs, so a tick names the same run as the runs table below.
  const labels = runTimeLabels(runs);
  const trends = prepareSiteTrends(runs, (run) => labels.get(run.id) ?? run.createdAt);
  return (
    <section className="card" aria-labelledby="site-trends-title">
      <div className="card__header">
        <h2 id="site-trends-title">Trends</h2>
        <span className="muted small">
          {runs.length === 100 ? 'The newest 100 runs' : `${runs.length} run${runs.length === 1 ? '' : 's'}`}
        </span>
      </div>
      <div className={`card__body ${styles.trends}`}>
        {trends.declared.length > 0 ? (
          <DeclaredUrlsChart points={trends.declared} />
        ) : (
          <p className="muted small">No complete run yet: declared URLs are drawn for complete runs only.</p>
        )}
        {trends.prune.rows.length > 0 ? (
          <ListByReasonChart
            trend={trends.prune}
            title="Prune per run, by reason"
            testId="site-prune-chart"
          />
        ) : null}
        {trends.add.rows.length > 0 ? (
          <ListByReasonChart trend={trends.add} title="Add per run, by reason" testId="site-add-chart" />
        ) : null}
        {trends.gap ? (
          <PercentTrendChart
            points={trends.gap.map((point) => ({ ...point, percent: point.gap }))}
            title="Submitted but not indexed (Search Console), per run"
            series="Gap"
            colour="#dc2626"
            testId="site-gap-chart"
          />
        ) : null}
        {trends.rot ? (
          <PercentTrendChart
            points={trends.rot.map((point) => ({ ...point, percent: point.rot }))}
            title="Rot rate of the latest spot-check (declared URLs answering 4xx), per run"
            series="Rot rate"
            colour="#b45309"
            testId="site-rot-chart"
          />
        ) : null}
      </div>
    </section>
  );
}
