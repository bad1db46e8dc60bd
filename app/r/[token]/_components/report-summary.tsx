// The report's summary (a server component): audit facts, warnings, counts per list, reason and decision,
// and the two charts (client components, fed data prepared on the server).
import { ReasonsPerFileChart } from '@/components/charts/reasons-per-file-chart';
import { ReasonsPerListChart } from '@/components/charts/reasons-per-list-chart';
import { Alert } from '@/components/ui/alert';
import { formatCount } from '@/lib/audits/format';
import type { AuditDto } from '@/lib/audits/schema';
import {
  type ReasonsPerFileData,
  type ReasonsPerListData,
  rankReasons,
  reasonColour,
} from '@/lib/findings/chart-data';
import { listLabel, reasonLabel, sanityWarningTitle } from '@/lib/findings/format';
import { type FindingList, type FindingsOverview, LISTS } from '@/lib/findings/schema';
import { LIST_HINTS, utcDateTime } from '@/lib/report/format';

function ListCounts({ list, findings }: { list: FindingList; findings: FindingsOverview }) {
  const summary = findings[list];
  const decisions = findings.decisions[list];
  const reasons = rankReasons(summary.byReason);
  return (
    <div className="summary-list" data-testid={`summary-${list}`}>
      <h3>
        {listLabel(list)}{' '}
        <span className="summary-list__total" data-value={summary.total}>
          {formatCount(summary.total)}
        </span>
      </h3>
      <p className="muted small">{LIST_HINTS[list]}</p>
      {reasons.length > 0 ? (
        <ul className="reason-counts">
          {reasons.map(([reason, count]) => (
            <li key={reason} className="reason-counts__item">
              <span className="reason-dot" style={{ background: reasonColour(reason) }} aria-hidden="true" />
              <span>{reasonLabel(reason)}</span>
              <span className="reason-counts__n">{formatCount(count)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Nothing in this list.</p>
      )}
      <p className="small decision-counts">
        <span>{formatCount(decisions.approved)} approved</span>
        <span>{formatCount(decisions.rejected)} rejected</span>
        <span>{formatCount(decisions.pending)} pending</span>
      </p>
    </div>
  );
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
          <span className="muted small">Crawl of {utcDateTime(findings.crawlTime)}</span>
        ) : null}
      </div>
      <div className="card__body stack">
        <dl className="stats report-stats">
          <div className="stat">
            <dt>Sitemap files</dt>
            <dd>{formatCount(audit.sitemap.files)}</dd>
          </div>
          <div className={`stat${audit.sitemap.filesFailed > 0 ? ' stat--bad' : ''}`}>
            <dt>Files failed</dt>
            <dd>{formatCount(audit.sitemap.filesFailed)}</dd>
          </div>
          <div className="stat">
            <dt>Sitemap entries</dt>
            <dd>{formatCount(audit.sitemap.entries)}</dd>
          </div>
          <div className="stat">
            <dt>Unique URLs</dt>
            <dd>{formatCount(audit.sitemap.uniqueUrls)}</dd>
          </div>
          <div className="stat">
            <dt>Crawl rows</dt>
            <dd>{formatCount(audit.crawl.rows)}</dd>
          </div>
          <div className={`stat${audit.crawl.rowsRejected > 0 ? ' stat--bad' : ''}`}>
            <dt>Crawl rows rejected</dt>
            <dd>{formatCount(audit.crawl.rowsRejected)}</dd>
          </div>
        </dl>
        {audit.warnings.length > 0 ? (
          <div className="stack report-warnings" data-testid="report-warnings">
            {audit.warnings.map((warning) => (
              <Alert
                key={`${warning.code}:${warning.message}`}
                tone="warning"
                title={sanityWarningTitle(warning.code)}
              >
                {warning.message} <code className="small">{warning.code}</code>
              </Alert>
            ))}
          </div>
        ) : null}
        {findings ? (
          <>
            <div className="summary-lists">
              {LISTS.map((list) => (
                <ListCounts key={list} list={list} findings={findings} />
              ))}
            </div>
            <p className="small">
              <strong>Not added:</strong> {formatCount(findings.addExcluded.non200)} non-200,{' '}
              {formatCount(findings.addExcluded.noindex)} noindex,{' '}
              {formatCount(findings.addExcluded.canonicalised)} canonicalised
            </p>
            <div className="grid-2 report-charts">
              <figure className="chart">
                <figcaption>Reasons per list</figcaption>
                {perList.isEmpty ? (
                  <p className="muted small">No findings to chart.</p>
                ) : (
                  <ReasonsPerListChart data={perList} title="Findings per reason, by list" />
                )}
                {perList.foldedReasons > 0 ? (
                  <p className="muted small">
                    {formatCount(perList.foldedReasons)} smaller reasons are grouped as “Other reasons”.
                  </p>
                ) : null}
              </figure>
              <figure className="chart">
                <figcaption>Prune and held reasons per sitemap file</figcaption>
                {perFile.isEmpty ? (
                  <p className="muted small">No prune or held findings to chart.</p>
                ) : (
                  <ReasonsPerFileChart data={perFile} title="Prune and held reasons per sitemap file" />
                )}
                {perFile.foldedFiles > 0 ? (
                  <p className="muted small">
                    The largest files are shown; the rest are grouped as “Other files”.
                  </p>
                ) : null}
              </figure>
            </div>
          </>
        ) : null}
      </div>
    </section>
  );
}
