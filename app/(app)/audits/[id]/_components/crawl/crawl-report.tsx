// What happened to the crawl export: detected format, column mapping and the first rejected rows; for an
// audit without one, "Add a crawl export" (add-crawl-form.tsx); for an audit that crawled the site itself,
// that crawl (crawler-report.tsx). On a phone
// the column chips take the card's full width, below their term: beside it they had ~150 px and broke
// "canonical_url" mid-word.
import { useCan } from '@/app/session-context';
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import { CRAWL_FIELD_LABELS, type CrawlField } from '@/lib/audits/crawl-fields';
import { crawlFormatLabel, isActiveStatus } from '@/lib/audits/labels';
import type { AuditDto } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import { AddCrawlForm } from './add-crawl-form';
import styles from './crawl.module.css';
import { CrawlerReport } from './crawler-report';

type Rejection = AuditDto['crawl']['rejections'][number];

const REJECTION_COLUMNS: DataColumn<Rejection>[] = [
  { id: 'line', header: 'Line', cellClassName: 'mono', cell: (rejection) => rejection.line },
  { id: 'reason', header: 'Reason', cell: (rejection) => rejection.reason },
];

function fieldLabel(field: string): string {
  return (CRAWL_FIELD_LABELS as Record<string, string | undefined>)[field] ?? field;
}

export function CrawlReport({ audit }: { audit: AuditDto }) {
  const { crawl } = audit;
  const hasCrawl = crawl.source !== null;
  const canAdd = useCan('reviewer');
  // A crawl can be added once the sitemaps were read (the server says why not otherwise).
  const canTakeCrawl =
    (audit.status === 'succeeded' || audit.status === 'partial') && audit.sitemap.entries > 0;
  const mapped = Object.entries(crawl.mappedColumns) as [CrawlField | string, string][];
  if (crawl.crawler)
    return <CrawlerReport crawler={crawl.crawler} isRunning={isActiveStatus(audit.status)} />;

  return (
    <section className="card" aria-labelledby="crawl-report-heading" data-testid="crawl-report">
      <div className="card__header">
        <h2 id="crawl-report-heading">Crawl import</h2>
      </div>
      <div className="card__body stack">
        {!hasCrawl ? (
          <>
            <p className="muted">
              No crawl export was given with this audit, so it has not been reconciled
              {canTakeCrawl && !canAdd ? ' (a reviewer can add one)' : ''}.
            </p>
            {canTakeCrawl && canAdd ? <AddCrawlForm auditId={audit.id} /> : null}
          </>
        ) : (
          <>
            <dl className={`kv ${styles['crawl-report__kv']}`}>
              <dt>Source</dt>
              <dd data-testid="crawl-source">{crawl.source?.name}</dd>
              <dt>Format</dt>
              <dd data-testid="crawl-format">{crawlFormatLabel(crawl.format)}</dd>
              <dt>Rows imported</dt>
              <dd>{formatCount(crawl.rows)}</dd>
              <dt>Rows rejected</dt>
              <dd>{formatCount(crawl.rowsRejected)}</dd>
              <dt className={styles['crawl-report__wide']}>Mapped columns</dt>
              <dd className={styles['crawl-report__wide']}>
                {mapped.length === 0 ? (
                  <span className="muted">None</span>
                ) : (
                  <ul
                    className={`${styles.chips} ${styles['crawl-report__chips']}`}
                    data-testid="crawl-mapped-columns"
                  >
                    {mapped.map(([field, header]) => (
                      <li key={field} className={styles.chip}>
                        {fieldLabel(field)}
                        <span className={styles.chip__arrow} aria-hidden="true">
                          →
                        </span>
                        <span className="visually-hidden"> is read from column </span>
                        <span className="mono">{header}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
              <dt className={styles['crawl-report__wide']}>Unmapped columns</dt>
              <dd className={styles['crawl-report__wide']}>
                {crawl.unmappedColumns.length === 0 ? (
                  <span className="muted">None</span>
                ) : (
                  <ul
                    className={`${styles.chips} ${styles['crawl-report__chips']}`}
                    data-testid="crawl-unmapped-columns"
                  >
                    {crawl.unmappedColumns.map((column) => (
                      <li key={column} className={`mono ${styles.chip}`}>
                        {column}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </dl>
            {crawl.rejections.length > 0 ? (
              <div className="stack" style={{ gap: '0.5rem' }}>
                <h3>
                  {crawl.rejections.length < crawl.rowsRejected
                    ? `First ${formatCount(crawl.rejections.length)} of ${formatCount(crawl.rowsRejected)} rejected rows`
                    : 'Rejected rows'}
                </h3>
                <DataTable
                  columns={REJECTION_COLUMNS}
                  rows={crawl.rejections}
                  // A server-built list that is only ever appended to: its place is part of its identity.
                  rowKey={(rejection, index) => `${rejection.line}-${index}`}
                  className={styles['sub-table']}
                  testId="crawl-rejections"
                />
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
