'use client';
// The Search Console gaps on the audit page: the property's totals from the
// overview chart, the gap per sitemap file over the bands, indexed vs not indexed over time, and the table
// of every file sorted by gap (docs/search-console.md "Gaps per sitemap file").
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import { formatCount } from '@/lib/core/format';
import type { GapBand } from '@/lib/gsc/gap-stats';
import {
  BAND_LABELS,
  flagWords,
  formatGap,
  formatShare,
  INSUFFICIENT_NOTE,
  PROPERTY_SOURCE,
  prepareGapBars,
  prepareIndexSeries,
  shortSitemapName,
} from '@/lib/gsc/gaps-chart';
import type { PropertyTotals, SitemapGapDto } from '@/lib/gsc/gaps-shape';
import { useGscGaps } from '@/lib/gsc/hooks-gaps';
import { GapBarsChart, IndexedOverTimeChart } from './gsc-gaps-charts';
import tableStyles from './gsc-gaps-table.module.css';
import styles from './search-console.module.css';

const BAND_BADGE: Record<GapBand, string> = {
  normal: 'badge--success',
  investigate: 'badge--warning',
  problem: 'badge--danger',
  insufficient: 'badge--neutral',
};

/** Reasons shown in a row; the rest are summed as "n more". */
const TOP_REASONS = 2;

function BandBadge({ band, basis }: { band: GapBand | null; basis: SitemapGapDto['basis'] }) {
  if (!band) return <span className="muted">—</span>;
  return (
    <span className={`badge ${BAND_BADGE[band]}`} data-testid="gsc-band">
      {BAND_LABELS[band]}
      {basis === 'estimate' ? ' (est.)' : ''}
    </span>
  );
}

function Reasons({ row }: { row: SitemapGapDto }) {
  const top = row.notIndexedByReason.slice(0, TOP_REASONS);
  const rest = row.notIndexedByReason.slice(TOP_REASONS).reduce((sum, r) => sum + r.count, 0);
  return (
    <>
      <strong>{formatCount(row.notIndexed)}</strong>
      {top.length > 0 ? (
        <ul className={styles['gsc-gaps__reasons']}>
          {top.map((r) => (
            <li key={`${r.bucket}:${r.reason}`}>
              {formatCount(r.count)} {r.reason ?? r.bucket ?? 'no reason given'}
            </li>
          ))}
          {rest > 0 ? <li className="muted">{formatCount(rest)} other</li> : null}
        </ul>
      ) : null}
    </>
  );
}

function PropertyLine({ property }: { property: PropertyTotals }) {
  const total = (property.indexed ?? 0) + (property.notIndexed ?? 0);
  return (
    <p data-testid="gsc-property">
      Whole property on {property.date ?? '—'}:{' '}
      <strong>{property.indexed === null ? '—' : formatCount(property.indexed)}</strong> indexed,{' '}
      <strong>{property.notIndexed === null ? '—' : formatCount(property.notIndexed)}</strong> not indexed.
      The imports name {formatCount(property.named)} URLs one by one
      {property.coverage === null
        ? '.'
        : ` (${formatShare(property.coverage)} of the ${formatCount(total)} Search Console counts).`}{' '}
      <span className="muted small" data-testid="gsc-property-source">
        {PROPERTY_SOURCE}
      </span>
    </p>
  );
}

const GAP_COLUMNS: DataColumn<SitemapGapDto>[] = [
  {
    id: 'file',
    header: 'Sitemap file',
    cellClassName: tableStyles['gsc-gaps__file'],
    cellProps: (row) => ({ title: row.sitemap }),
    cell: (row) => shortSitemapName(row.sitemap),
  },
  { id: 'submitted', header: 'Submitted', cell: (row) => formatCount(row.submitted) },
  { id: 'indexed', header: 'Indexed', cell: (row) => formatCount(row.indexed) },
  { id: 'not-indexed', header: 'Not indexed', cell: (row) => <Reasons row={row} /> },
  { id: 'unknown', header: 'Unknown', cell: (row) => formatCount(row.unknown) },
  {
    id: 'gap',
    header: 'Gap',
    cell: (row) => (
      <>
        {formatGap(row)}
        {row.basis === 'estimate' ? (
          <div className="muted small">from {formatCount(row.sampled)} inspected</div>
        ) : null}
        {row.band === 'insufficient' ? (
          <div className="muted small" data-testid="gsc-gap-known">
            only {formatCount(row.indexed + row.notIndexed)} of {formatCount(row.submitted)} known
          </div>
        ) : null}
      </>
    ),
  },
  { id: 'band', header: 'Band', cell: (row) => <BandBadge band={row.band} basis={row.basis} /> },
  {
    id: 'read',
    header: 'Last read',
    cell: (row) => (
      <>
        {row.lastRead ?? '—'}
        {row.status ? <div className="muted small">{row.status}</div> : null}
        {flagWords(row).map((flag) => (
          <div key={flag}>
            <span className="badge badge--warning badge--plain" data-testid="gsc-flag">
              {flag}
            </span>
          </div>
        ))}
      </>
    ),
  },
];

function GapTable({ rows }: { rows: SitemapGapDto[] }) {
  return (
    <DataTable
      columns={GAP_COLUMNS}
      rows={rows}
      rowKey={(row) => row.fileId}
      rowProps={() => ({ 'data-testid': 'gsc-gap-row' })}
      caption={{ text: 'Submitted and indexed URLs per sitemap file, largest gap first' }}
      className={`table ${tableStyles['gsc-gaps__table']}`}
      wrapClassName="table-wrap"
      testId="gsc-gap-table"
    />
  );
}

export function GscGaps({ auditId }: { auditId: string }) {
  const gaps = useGscGaps(auditId);
  if (gaps.isPending) return <p className="muted small">Reading Search Console data…</p>;
  if (gaps.isError) {
    return (
      <p className="alert alert--danger" role="alert">
        Could not read the Search Console gaps: {gaps.error.message}
      </p>
    );
  }
  const data = gaps.data;
  // The imports above already say there are none yet (and what appears once there are): said once.
  if (!data.hasData) return null;
  const bars = prepareGapBars(data.sitemaps);
  const series = prepareIndexSeries(data.property);
  return (
    <div className="stack gsc-gaps" data-testid="gsc-gaps">
      <h3>Gaps per sitemap file</h3>
      {data.property ? <PropertyLine property={data.property} /> : null}
      <div className={styles['gsc-gaps__charts']}>
        {bars.isEmpty ? null : <GapBarsChart data={bars} />}
        {series.length > 0 ? <IndexedOverTimeChart points={series} /> : null}
      </div>
      {data.sitemaps.length === 0 ? (
        <p className="muted">No sitemap file of this audit has declared entries.</p>
      ) : (
        <GapTable rows={data.sitemaps} />
      )}
      <p className="muted small">
        Gap = not indexed ÷ submitted (distinct declared URLs). Under 10 % is normal, 10–30 % worth
        investigating, over 30 % a problem. “est.” marks an estimate from the sample of URLs that URL
        Inspection checked, with its 95 % interval. {INSUFFICIENT_NOTE}
        {data.sitemapReportOn
          ? ` Last read and the flags come from the Sitemaps report imported on ${data.sitemapReportOn}.`
          : ''}
      </p>
    </div>
  );
}
