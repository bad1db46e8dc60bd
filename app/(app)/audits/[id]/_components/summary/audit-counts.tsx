// The headline numbers of an audit. Each value carries a test id and its raw number in data-value.

import { isActiveStatus } from '@/lib/audits/labels';
import type { AuditDto } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import counts from './audit-counts.module.css';
import styles from './summary.module.css';

interface Stat {
  label: string;
  testId: string;
  value: number | null;
  isBad?: boolean;
}

/** The audit row carries running totals while ingest runs; unique URLs need the whole set, so they
 * are known only when reading has finished (never, for an audit that ended while reading). */
export function AuditCounts({ audit }: { audit: AuditDto }) {
  const totals = audit.sitemap;
  const isActive = isActiveStatus(audit.status);
  const isUnfinished = !isActive && audit.timings.ingest === undefined && audit.status !== 'succeeded';
  const isUniquePending = (isActive && totals.uniqueUrls === 0) || isUnfinished;
  const stats: Stat[] = [
    { label: 'Sitemap files', testId: 'count-files', value: totals.files },
    { label: 'Failed files', testId: 'count-files-failed', value: totals.filesFailed, isBad: true },
    // Files answered 304 Not Modified whose earlier copy was reused: only runs of a site have any.
    ...(audit.reusedFiles > 0
      ? [{ label: 'Reused (304)', testId: 'count-files-reused', value: audit.reusedFiles }]
      : []),
    { label: 'Entries', testId: 'count-entries', value: totals.entries },
    // Unique URLs need the whole set: unknown until ingest has finished.
    {
      label: 'Unique URLs',
      testId: 'count-unique',
      value: isUniquePending ? null : totals.uniqueUrls,
    },
    { label: 'Crawl rows', testId: 'count-crawl-rows', value: audit.crawl.rows },
    { label: 'Rejected rows', testId: 'count-crawl-rejected', value: audit.crawl.rowsRejected, isBad: true },
  ];
  return (
    <section
      className="card"
      aria-label="Totals"
      aria-describedby={isUniquePending ? 'counts-live-note' : undefined}
    >
      <dl className={counts.stats}>
        {stats.map((stat) => (
          <div
            key={stat.testId}
            className={`${counts.stat} ${stat.isBad && (stat.value ?? 0) > 0 ? counts['stat--bad'] : ''}`}
          >
            <dt>{stat.label}</dt>
            <dd data-testid={stat.testId} data-value={stat.value ?? undefined}>
              {formatCount(stat.value)}
            </dd>
          </div>
        ))}
      </dl>
      {isUniquePending ? (
        <p id="counts-live-note" className={styles.card__footnote}>
          {isActive
            ? 'Counting as files are read; unique URLs are known when reading finishes.'
            : `Counts of the files read before the audit ${audit.status === 'cancelled' ? 'was cancelled' : 'failed'}; unique URLs are not counted, as reading did not finish.`}
        </p>
      ) : null}
    </section>
  );
}
