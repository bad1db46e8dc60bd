// The prune / add / held lists of the report (a server component): tabs and the next-page link are plain
// links that change the search params; each page is 100 rows read by keyset from the server. A row the
// latest finished spot-check checked carries its verdict under the reason.
import { VerdictBadge } from '@/app/(app)/audits/[id]/_components/spot-checks-verdict';
import { formatCount } from '@/lib/audits/format';
import { rankReasons } from '@/lib/findings/chart-data';
import { decisionLabel, LIST_HINTS, listLabel } from '@/lib/findings/format';
import { reasonInfo } from '@/lib/findings/reasons';
import { type FindingList, type FindingPage, type FindingsOverview, LISTS } from '@/lib/findings/schema';
import { shortEvidence, utcDateTime } from '@/lib/report/format';
import { type ReportView, reportHref } from '@/lib/report/shared';
import type { Verdict } from '@/lib/spot-check/types';
import { definitionTitle, ReasonDefinitions } from './report-definitions';

function Tabs({ current, findings }: { current: FindingList; findings: FindingsOverview }) {
  return (
    <nav aria-label="Lists" className="tabs report-tabs">
      {LISTS.map((list) => (
        <a
          key={list}
          href={reportHref({ list })}
          className="tab"
          aria-current={list === current ? 'page' : undefined}
          data-testid={`report-tab-${list}`}
        >
          {listLabel(list)} <span className="tab__count">{formatCount(findings[list].total)}</span>
        </a>
      ))}
    </nav>
  );
}

/** The row's verdict in the latest spot-check, under its reason (no column: the 390 px layout stays). */
function LiveVerdict({ verdict }: { verdict: Verdict | undefined }) {
  if (!verdict) return null;
  return (
    <span className="report-live" data-testid="report-live-verdict" data-verdict={verdict}>
      <span className="muted small">Live check:</span> <VerdictBadge verdict={verdict} />
    </span>
  );
}

export function ReportFindings({
  findings,
  view,
  page,
  nextHref,
  verdicts,
}: {
  findings: FindingsOverview;
  view: ReportView;
  page: FindingPage;
  nextHref: string | null;
  /** The latest finished spot-check's verdicts by finding id; null when no check ran. */
  verdicts: Map<number, Verdict> | null;
}) {
  const from = view.start;
  const to = view.start + page.items.length - 1;
  const reasons = rankReasons(findings[view.list].byReason).map(([reason]) => reason);
  const signals = [...new Set(page.items.flatMap((finding) => finding.signals))].sort();
  return (
    <section className="card report-section" aria-labelledby="report-list-heading">
      <Tabs current={view.list} findings={findings} />
      <div className="card__header">
        <h2 id="report-list-heading">{listLabel(view.list)} list</h2>
        <span className="muted small" data-testid="report-list-total">
          {formatCount(page.total)} rows
          {page.items.length > 0 && page.total > page.items.length && to <= page.total
            ? ` · showing ${formatCount(from)}–${formatCount(to)}`
            : ''}
        </span>
      </div>
      <div className="card__body report-list-intro">
        <p className="muted small">{LIST_HINTS[view.list]}</p>
        <ReasonDefinitions reasons={reasons} signals={signals} />
      </div>
      {page.items.length === 0 ? (
        <div className="card__body">
          <p className="muted">{view.cursor ? 'No more rows.' : 'Nothing in this list.'}</p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table report-table" data-testid="report-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Reason</th>
                <th scope="col">Evidence</th>
                <th scope="col">Decision</th>
                <th scope="col">Decided by</th>
                <th scope="col">Decided at</th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((finding) => (
                <tr key={finding.id}>
                  <td className="report-table__url">{finding.url}</td>
                  <td className="report-table__reason" title={definitionTitle(reasonInfo(finding.reason))}>
                    {reasonInfo(finding.reason).label}
                    <LiveVerdict verdict={verdicts?.get(finding.id)} />
                  </td>
                  <td className="report-table__evidence small">{shortEvidence(finding)}</td>
                  <td>
                    <span className={`report-decision report-decision--${finding.decision}`}>
                      {decisionLabel(finding.decision)}
                    </span>
                  </td>
                  <td className="report-table__by">{finding.decidedBy ?? '—'}</td>
                  <td className="report-table__date">
                    {finding.decidedAt ? utcDateTime(finding.decidedAt) : '—'}
                  </td>
                  <td className="report-table__note small">{finding.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="table__foot report-pager">
        <span>
          {view.cursor ? (
            <a href={reportHref({ list: view.list })} data-testid="report-first-page">
              ← First page
            </a>
          ) : null}
        </span>
        <span>
          {nextHref ? (
            <a href={nextHref} rel="nofollow" data-testid="report-next-page">
              Next page →
            </a>
          ) : null}
        </span>
      </div>
    </section>
  );
}
