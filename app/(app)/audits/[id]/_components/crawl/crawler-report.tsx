// The Crawl tab of an audit that crawled the site itself: why the crawl stopped early (if it did), its totals
// by status, the settings it ran with, and per section whether it was crawled completely or cut by a limit
// (a cut section's unreached URLs are held, not pruned), cut sections first. Words: crawler-words.ts.
import { Fragment } from 'react';
import { Alert } from '@/components/ui/alert';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import type { CrawlerDto } from '@/lib/audits/crawler-schema';
import { formatCount } from '@/lib/core/format';
import { isCut } from '@/lib/crawler/issues';
import type { SectionCoverage } from '@/lib/crawler/types';
import styles from './crawl.module.css';
import {
  crawlerSettingsRows,
  cutSectionsWords,
  sectionCoverageWords,
  sectionLabel,
  sectionsHost,
  sortSections,
  statusTotals,
  stoppedTitle,
} from './crawler-words';

/** Sections shown at most: a site with thousands of first path segments gets the cut ones and the largest. */
const SHOWN_SECTIONS = 100;

const sectionColumns = (host: string | null, crawlStopped: boolean): DataColumn<SectionCoverage>[] => [
  {
    id: 'section',
    header: 'Section',
    cellClassName: `mono ${styles.sections__name}`,
    cell: (section) => <BreakableUrl url={sectionLabel(section, host)} />,
  },
  { id: 'pages', header: 'Pages', isNumeric: true, cell: (section) => formatCount(section.pages) },
  {
    id: 'coverage',
    header: 'Coverage',
    cell: (section) => (
      <span className={isCut(section) ? styles.sections__cut : undefined}>
        {sectionCoverageWords(section, crawlStopped)}
      </span>
    ),
  },
  {
    id: 'example',
    header: 'Example cut URL',
    label: 'Example',
    cellClassName: styles.sections__url,
    cell: (section) =>
      section.example ? (
        <span className="mono">
          <BreakableUrl url={section.example} />
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

export function CrawlerReport({ crawler, isRunning }: { crawler: CrawlerDto; isRunning: boolean }) {
  const { settings, progress } = crawler;
  const sections = progress ? sortSections(progress.sections) : [];
  const shown = sections.slice(0, SHOWN_SECTIONS);
  const crawlStopped = Boolean(progress?.stopped);
  const cutNote = cutSectionsWords(sections, isRunning, crawlStopped);
  const host = sectionsHost(sections);
  const totals = progress ? statusTotals(progress.byStatus) : [];

  return (
    <section className="card" aria-labelledby="crawl-report-heading" data-testid="crawler-report">
      <div className="card__header">
        <h2 id="crawl-report-heading">Site crawl</h2>
        <span className="muted small">{isRunning ? 'Crawling…' : 'Crawled by Sitemap Audit'}</span>
      </div>
      <div className="card__body stack">
        {progress?.stopped ? (
          <div data-testid="crawler-stopped" data-reason={progress.stopped.reason}>
            <Alert tone="warning" title={stoppedTitle(progress.stopped.reason)}>
              {progress.stopped.message}
            </Alert>
          </div>
        ) : null}
        <div className={styles.crawler__facts}>
          <div className="stack" style={{ gap: '0.5rem' }}>
            <h3>Totals</h3>
            {progress ? (
              <dl className="kv" data-testid="crawler-totals">
                <dt>Pages fetched</dt>
                <dd>{formatCount(progress.fetched)}</dd>
                {progress.queued > 0 ? (
                  <>
                    <dt>{isRunning ? 'Queued' : 'Left in the queue'}</dt>
                    <dd>{formatCount(progress.queued)}</dd>
                  </>
                ) : null}
                <dt>Requests</dt>
                <dd>{formatCount(progress.requests)}</dd>
                {totals.map((row) => (
                  <Fragment key={row.key}>
                    <dt>{row.label}</dt>
                    <dd data-status={row.key}>{formatCount(row.count)}</dd>
                  </Fragment>
                ))}
              </dl>
            ) : (
              <p className="muted">The crawl has not started yet.</p>
            )}
          </div>
          <div className="stack" style={{ gap: '0.5rem' }}>
            <h3>Settings</h3>
            <dl className={`kv ${styles.crawler__kv}`} data-testid="crawler-settings">
              {crawlerSettingsRows(settings).map((row) => (
                <Fragment key={row.term}>
                  <dt>{row.term}</dt>
                  <dd>{row.isUrl ? <BreakableUrl url={row.value} /> : row.value}</dd>
                </Fragment>
              ))}
            </dl>
          </div>
        </div>
        {progress && sections.length > 0 ? (
          <div className="stack" style={{ gap: '0.5rem' }}>
            <h3 id="crawler-sections-heading">Coverage by section</h3>
            <p className="muted small" data-testid="crawler-cut-note">
              {host ? `On ${host}. ` : ''}
              {cutNote}
              {sections.length > shown.length
                ? ` Showing ${formatCount(shown.length)} of ${formatCount(sections.length)} sections, cut ones first.`
                : ''}
            </p>
            <DataTable
              columns={sectionColumns(host, crawlStopped)}
              rows={shown}
              rowKey={(section) => section.section}
              rowProps={(section) => ({ 'data-cut': isCut(section) })}
              caption={{ text: 'Coverage by section, cut sections first' }}
              className={styles.sections}
              wrapClassName={styles['sections-wrap']}
              testId="crawler-sections"
            />
          </div>
        ) : null}
      </div>
    </section>
  );
}
