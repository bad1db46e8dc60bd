// The report's "Search Console" section (a server component): the property's totals, the
// gap per sitemap file as a bar list over the 10 % and 30 % lines (HTML: the page ships no chart script),
// indexed vs not indexed per day as an SVG with its days in a hidden table, and the gap table. URLs are
// text, never links. With nothing imported, one line.
import tableStyles from '@/app/(app)/audits/[id]/_components/search-console/gsc-gaps-table.module.css';
import chartStyles from '@/components/charts/chart.module.css';
import { IndexPointsTable } from '@/components/charts/index-points-table';
import { formatCount } from '@/lib/core/format';
import {
  BAND_COLOURS,
  BAND_LABELS,
  BAND_LINES,
  flagWords,
  formatGap,
  formatShare,
  type GapBarsData,
  type IndexPoint,
  indexAxes,
  PROPERTY_SOURCE,
  prepareGapBars,
  prepareIndexSeries,
} from '@/lib/gsc/gaps-chart';
import type { GscGapsDto, SitemapGapDto } from '@/lib/gsc/gaps-shape';
import styles from './report-gsc.module.css';

const BAND_BADGE = {
  normal: 'badge--success',
  investigate: 'badge--warning',
  problem: 'badge--danger',
  insufficient: 'badge--neutral',
} as const;

function GapBars({ data }: { data: GapBarsData }) {
  return (
    <figure className={`report-gsc-bars ${chartStyles.chart}`} data-testid="report-gsc-bars">
      <figcaption>Gap per sitemap file</figcaption>
      <ul className={styles['report-gsc-bars__list']}>
        {data.bars.map((bar) => (
          <li key={bar.key} className={styles['report-gsc-bars__row']} data-testid="report-gsc-bar">
            <span className={`mono ${styles['report-gsc-bars__label']}`} title={bar.title}>
              {bar.label}
            </span>
            <span className={styles['report-gsc-bars__track']} aria-hidden="true">
              <span
                className={styles['report-gsc-bars__line']}
                style={{ left: `${BAND_LINES.investigate}%` }}
              />
              <span className={styles['report-gsc-bars__line']} style={{ left: `${BAND_LINES.problem}%` }} />
              <span
                className={styles['report-gsc-bars__bar']}
                style={{ width: `${Math.max(bar.gap, 0.5)}%`, background: BAND_COLOURS[bar.band] }}
              />
            </span>
            <span className={styles['report-gsc-bars__value']}>
              {bar.gap} % {BAND_LABELS[bar.band].toLowerCase()}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small">
        Dashed lines at {BAND_LINES.investigate} % and {BAND_LINES.problem} %: under 10 % normal, 10–30 %
        investigate, over 30 % problem.
        {data.folded > 0 ? ` The ${data.bars.length} largest gaps are drawn; the table lists more.` : ''}
        {data.insufficient > 0
          ? ` ${data.insufficient === 1 ? 'A file' : `${data.insufficient} files`} without enough data (under 10 % of its URLs known) ${data.insufficient === 1 ? 'is' : 'are'} not drawn.`
          : ''}
      </p>
    </figure>
  );
}

const W = 600;
const H = 180;

/** Where a day sits across the plot, in percent: the axis labels are HTML, placed to match the SVG. */
const xPercent = (index: number, count: number) => (count <= 1 ? 50 : (index / (count - 1)) * 100);

function IndexSvg({ points }: { points: IndexPoint[] }) {
  const { top, yTicks, xTicks } = indexAxes(points);
  const x = (i: number) => (xPercent(i, points.length) / 100) * W;
  const y = (v: number) => H - (v / top) * H;
  const line = (pick: (p: IndexPoint) => number | null) =>
    points
      .map((p, i) => [i, pick(p)] as const)
      .filter((pair): pair is readonly [number, number] => pair[1] !== null)
      .map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`)
      .join(' ');
  const first = points[0];
  const last = points[points.length - 1];
  return (
    <figure className={chartStyles.chart} data-testid="report-gsc-index">
      <figcaption>Indexed and not indexed pages over time (whole property)</figcaption>
      {/* The SVG stretches to the width; its scale and dates are HTML beside it, so text never stretches. */}
      <div className={styles['report-gsc-index']}>
        <div className={styles['report-gsc-index__y']} aria-hidden="true" data-testid="report-gsc-index-y">
          {yTicks.map((tick) => (
            <span key={tick} style={{ bottom: `${(tick / top) * 100}%` }}>
              {formatCount(tick)}
            </span>
          ))}
        </div>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className={styles['report-gsc-index__svg']}
          role="img"
          aria-label={`Indexed and not indexed pages per day, ${first?.date} to ${last?.date}, on a scale of 0 to ${formatCount(top)}; the days are in the table below`}
        >
          {yTicks.map((tick) => (
            <line
              key={tick}
              x1="0"
              x2={W}
              y1={y(tick)}
              y2={y(tick)}
              stroke={tick === 0 ? '#8a919c' : '#e3e6ea'}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          <polyline
            points={line((p) => p.indexed)}
            fill="none"
            stroke={BAND_COLOURS.normal}
            strokeWidth="2"
            vectorEffect="non-scaling-stroke"
          />
          <polyline
            points={line((p) => p.notIndexed)}
            fill="none"
            stroke={BAND_COLOURS.problem}
            strokeWidth="2"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        <div className={styles['report-gsc-index__x']} aria-hidden="true" data-testid="report-gsc-index-x">
          {xTicks.map((tick) => (
            <span
              key={tick.index}
              data-edge={tick.index === 0 ? 'start' : tick.index === points.length - 1 ? 'end' : undefined}
              style={{ left: `${xPercent(tick.index, points.length)}%` }}
            >
              {tick.date}
            </span>
          ))}
        </div>
      </div>
      <p className="muted small">
        <span style={{ color: BAND_COLOURS.normal }}>━ Indexed</span> ·{' '}
        <span style={{ color: BAND_COLOURS.problem }}>━ Not indexed</span> · pages per day, {first?.date} to{' '}
        {last?.date}
      </p>
      <IndexPointsTable points={points} />
    </figure>
  );
}

function reasonsText(row: SitemapGapDto): string {
  return row.notIndexedByReason
    .slice(0, 3)
    .map((r) => `${formatCount(r.count)} ${r.reason ?? r.bucket ?? 'no reason given'}`)
    .join('; ');
}

function GapTable({ rows, total }: { rows: SitemapGapDto[]; total: number }) {
  return (
    <>
      <div className="table-wrap">
        <table
          className={`table report-table ${tableStyles['gsc-gaps__table']}`}
          data-testid="report-gsc-table"
        >
          <thead>
            <tr>
              <th scope="col">Sitemap file</th>
              <th scope="col">Submitted</th>
              <th scope="col">Indexed</th>
              <th scope="col">Not indexed</th>
              <th scope="col">Unknown</th>
              <th scope="col">Gap</th>
              <th scope="col">Band</th>
              <th scope="col">Last read</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.fileId} data-testid="report-gsc-row">
                <td data-label="Sitemap file" className="report-table__url">
                  <span className="mono">{row.sitemap}</span>
                </td>
                <td data-label="Submitted">{formatCount(row.submitted)}</td>
                <td data-label="Indexed">{formatCount(row.indexed)}</td>
                <td data-label="Not indexed">
                  {formatCount(row.notIndexed)}
                  {row.notIndexedByReason.length > 0 ? (
                    <div className="muted small">{reasonsText(row)}</div>
                  ) : null}
                </td>
                <td data-label="Unknown">{formatCount(row.unknown)}</td>
                <td data-label="Gap">
                  {formatGap(row)}
                  {row.band === 'insufficient' ? (
                    <div className="muted small">
                      only {formatCount(row.indexed + row.notIndexed)} of {formatCount(row.submitted)} known
                    </div>
                  ) : null}
                </td>
                <td data-label="Band">
                  {row.band ? (
                    <span className={`badge ${BAND_BADGE[row.band]}`}>
                      {BAND_LABELS[row.band]}
                      {row.basis === 'estimate' ? ' (est.)' : ''}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Last read">
                  {row.lastRead ?? '—'}
                  {row.status ? <div className="muted small">{row.status}</div> : null}
                  {flagWords(row).map((flag) => (
                    <div key={flag} className="small">
                      ⚠ {flag}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > rows.length ? (
        <p className="muted small">
          and {formatCount(total - rows.length)} more files with smaller gaps: the audit's page in the app
          lists all of them.
        </p>
      ) : null}
    </>
  );
}

export function ReportGscSection({ gsc, rows }: { gsc: GscGapsDto | null; rows: number }) {
  const property = gsc?.property ?? null;
  const bars = prepareGapBars(gsc?.sitemaps ?? []);
  const series = prepareIndexSeries(property);
  return (
    <section className="card report-section" aria-labelledby="report-gsc-heading" data-testid="report-gsc">
      <div className="card__header">
        <h2 id="report-gsc-heading">Search Console</h2>
      </div>
      <div className="card__body stack">
        {!gsc ? (
          <p className="muted" data-testid="report-gsc-none">
            No Search Console data was imported for this audit.
          </p>
        ) : (
          <>
            <p className="muted small">
              Per sitemap file, how many distinct submitted URLs Google indexed, did not index (and why) or
              has not said, from the Search Console exports and URL inspections imported.
            </p>
            {property ? (
              <p data-testid="report-gsc-property">
                Whole property on {property.date ?? '—'}:{' '}
                <strong>{property.indexed === null ? '—' : formatCount(property.indexed)}</strong> indexed,{' '}
                <strong>{property.notIndexed === null ? '—' : formatCount(property.notIndexed)}</strong> not
                indexed; the imports name {formatCount(property.named)} URLs one by one (
                {formatShare(property.coverage)}). <span className="muted small">{PROPERTY_SOURCE}</span>
              </p>
            ) : null}
            {bars.isEmpty ? null : <GapBars data={bars} />}
            {series.length > 0 ? <IndexSvg points={series} /> : null}
            <GapTable rows={gsc.sitemaps.slice(0, rows)} total={gsc.sitemaps.length} />
          </>
        )}
      </div>
    </section>
  );
}
