// The report's summary (a server component): audit facts, warnings, counts per list, reason and decision,
// and the two charts (client components, fed data prepared on the server).

import counts from '@/app/(app)/audits/[id]/_components/summary/audit-counts.module.css';
import { ListCounts, ReasonCharts, WarningAlerts } from '@/components/findings/summary-parts';
import summaryParts from '@/components/findings/summary-parts.module.css';
import type { AuditDto } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import type { ReasonsPerFileData, ReasonsPerListData } from '@/lib/findings/chart-data';
import { reasonInfo } from '@/lib/findings/reasons';
import { LISTS } from '@/lib/findings/schema';
import { utcDateTime } from '@/lib/report/format';
import { definitionTitle, ExcludedDefinitions } from './report-definitions';

/** A reason's label with its definition and fix on hover (the list's section spells them out). */
function reasonWithDefinition(_list: unknown, reason: string | undefined, label: string) {
  return reason ? <span title={definitionTitle(reasonInfo(reason))}>{label}</span> : label;
}

export function ReportSummary({
  audit,
  perList,
  perFile,
}: {
  audit: AuditDto;
  perList: ReasonsPerListData;
  perFile: ReasonsPerFileData;
}) {
  const findings = audit.findings;
  return (
    <section className="card report-section" aria-labelledby="report-summary-heading">
      <div className="card__header">
        <h2 id="report-summary-heading">Summary</h2>
        {findings?.crawlTime ? (
          <span className="muted small">
            {/* The date never breaks ("09:00 / UTC"); "Crawl of" may go on the line above it on a phone. */}
            Crawl of <span className="report-summary__crawl">{utcDateTime(findings.crawlTime)}</span>
          </span>
        ) : null}
      </div>
      <div className="card__body stack">
        <dl className={`report-stats ${counts.stats}`}>
          <div className={counts.stat}>
            <dt>Sitemap files</dt>
            <dd>{formatCount(audit.sitemap.files)}</dd>
          </div>
          <div className={`${counts.stat} ${audit.sitemap.filesFailed > 0 ? counts['stat--bad'] : ''}`}>
            <dt>Files failed</dt>
            <dd>{formatCount(audit.sitemap.filesFailed)}</dd>
          </div>
          <div className={counts.stat}>
            <dt>Sitemap entries</dt>
            <dd>{formatCount(audit.sitemap.entries)}</dd>
          </div>
          <div className={counts.stat}>
            <dt>Unique URLs</dt>
            <dd>{formatCount(audit.sitemap.uniqueUrls)}</dd>
          </div>
          <div className={counts.stat}>
            <dt>Crawl rows</dt>
            <dd>{formatCount(audit.crawl.rows)}</dd>
          </div>
          <div className={`${counts.stat} ${audit.crawl.rowsRejected > 0 ? counts['stat--bad'] : ''}`}>
            <dt>Crawl rows rejected</dt>
            <dd>{formatCount(audit.crawl.rowsRejected)}</dd>
          </div>
        </dl>
        <WarningAlerts warnings={audit.warnings} testId="report-warnings" />
        {findings ? (
          <>
            <div className={summaryParts['summary-lists']}>
              {LISTS.map((list) => (
                <ListCounts key={list} list={list} findings={findings} label={reasonWithDefinition} />
              ))}
            </div>
            <ExcludedDefinitions excluded={findings.addExcluded} />
            <ReasonCharts perList={perList} perFile={perFile} />
          </>
        ) : null}
      </div>
    </section>
  );
}
