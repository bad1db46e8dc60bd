// The prune / add / held lists of the report (a server component): tabs, reason filters, the search and the
// pager change the search params by client-side navigation that keeps the scroll position (next/link with
// scroll={false}; prefetch off, since each render records a view); each page is 100 rows read by keyset
// from the server. A row the latest finished spot-check checked carries its verdict under the reason.
import Link from 'next/link';
import { VerdictBadge } from '@/app/(app)/audits/[id]/_components/spot-checks/spot-checks-verdict';
import { BreakableUrl } from '@/components/ui/breakable-url';
import tabStyles from '@/components/ui/tabs.module.css';
import { countText, formatCount } from '@/lib/core/format';
import { rankReasons } from '@/lib/findings/chart-data';
import { decisionLabel, LIST_HINTS, listLabel } from '@/lib/findings/format';
import { reasonInfo } from '@/lib/findings/reasons';
import { type FindingPage, type FindingsOverview, LISTS } from '@/lib/findings/schema';
import { shortEvidence, utcDateTime } from '@/lib/report/format';
import { type ReportView, reportHref } from '@/lib/report/shared';
import type { Verdict } from '@/lib/spot-check/types';
import { definitionTitle, ReasonDefinitions } from './report-definitions';
import { ReportFilters } from './report-filters';

function Tabs({ base, view, findings }: { base: string; view: ReportView; findings: FindingsOverview }) {
  return (
    <nav aria-label="Lists" className={`report-tabs ${tabStyles.tabs}`}>
      {LISTS.map((list) => (
        <Link
          key={list}
          // A list's reasons are its own: switching lists keeps the search, not the reason.
          href={`${base}${reportHref({ list, q: view.q })}`}
          scroll={false}
          prefetch={false}
          className={tabStyles.tab}
          aria-current={list === view.list ? 'page' : undefined}
          data-testid={`report-tab-${list}`}
        >
          {listLabel(list)} <span className={tabStyles.tab__count}>{formatCount(findings[list].total)}</span>
        </Link>
      ))}
    </nav>
  );
}

/** The row's verdict in the latest spot-check, under its reason (no column: the 390 px layout stays). */
function LiveVerdict({ verdict }: { verdict: Verdict | undefined }) {
  if (!verdict) return null;
  return (
    <span className="report-live" data-testid="report-live-verdict" data-verdict={verdict}>
      <span className="muted small">Live check:</span> <VerdictBadge verdict={verdict} compact />
    </span>
  );
}

export function ReportFindings({
  base,
  findings,
  view,
  page,
  nextHref,
  verdicts,
}: {
  /** The report's path, `/r/<token>`: links carry it so client-side navigation stays on the page. */
  base: string;
  findings: FindingsOverview;
  view: ReportView;
  page: FindingPage;
  nextHref: string | null;
  /** The latest finished spot-check's verdicts by finding id; null when no check ran. */
  verdicts: Map<number, Verdict> | null;
}) {
  const from = view.start;
  const to = view.start + page.items.length - 1;
  const ranked = rankReasons(findings[view.list].byReason);
  // Every reason of the list explained whatever the filter, so what sits above the rows keeps its height.
  const reasons = ranked.map(([reason]) => reason);
  const filtered = Boolean(view.reason || view.q);
  const signals = [...new Set(page.items.flatMap((finding) => finding.signals))].sort();
  // A Note column only where some row of the page has one: empty, it took the URLs' room.
  const hasNotes = page.items.some((finding) => Boolean(finding.note));
  return (
    <section className="card report-section" aria-labelledby="report-list-heading">
      <Tabs base={base} view={view} findings={findings} />
      <div className="card__header">
        <h2 id="report-list-heading">{listLabel(view.list)} list</h2>
        <span className="muted small" data-testid="report-list-total" data-value={page.total}>
          {countText(page.total, filtered ? 'matching row' : 'row', filtered ? 'matching rows' : 'rows')}
          {page.items.length > 0 && page.total > page.items.length && to <= page.total
            ? ` · showing ${formatCount(from)}–${formatCount(to)}`
            : ''}
        </span>
      </div>
      <div className="card__body report-list-intro">
        <p className="muted small">{LIST_HINTS[view.list]}</p>
        <ReasonDefinitions reasons={reasons} signals={signals} />
        <ReportFilters base={base} view={view} reasons={ranked} total={findings[view.list].total} />
      </div>
      {page.items.length === 0 ? (
        <div className="card__body">
          <p className="muted" data-testid="report-empty">
            {view.cursor
              ? 'No more rows.'
              : filtered
                ? 'No rows match these filters.'
                : 'Nothing in this list.'}
          </p>
        </div>
      ) : (
        <section
          className="table-wrap"
          aria-label="Rows of this list"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways in its box; keys must reach it
          tabIndex={0}
        >
          <table className="table report-table" data-testid="report-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Reason</th>
                <th scope="col">Evidence</th>
                <th scope="col">Decision</th>
                <th scope="col">Decided</th>
                {hasNotes ? <th scope="col">Note</th> : null}
              </tr>
            </thead>
            <tbody>
              {page.items.map((finding) => (
                <tr key={finding.id} data-testid="report-row">
                  <td data-label="URL" className="report-table__url report-table__url--words">
                    <BreakableUrl url={finding.url} />
                  </td>
                  <td
                    data-label="Reason"
                    className="report-table__reason"
                    title={definitionTitle(reasonInfo(finding.reason))}
                  >
                    {reasonInfo(finding.reason).label}
                    <LiveVerdict verdict={verdicts?.get(finding.id)} />
                  </td>
                  <td data-label="Evidence" className="report-table__evidence small">
                    {shortEvidence(finding)}
                  </td>
                  <td data-label="Decision">
                    <span className={`report-decision report-decision--${finding.decision}`}>
                      {decisionLabel(finding.decision)}
                    </span>
                  </td>
                  {/* Who and when in one column (name, then date): two mostly empty columns took the URLs'
                      room. A pending row has neither, and its phone card leaves the line out. */}
                  <td
                    data-label="Decided"
                    className="report-table__by"
                    data-empty={finding.decidedBy || finding.decidedAt ? undefined : ''}
                  >
                    {finding.decidedBy || finding.decidedAt ? (
                      <span className="report-decided">
                        {finding.decidedBy ? <span>{finding.decidedBy}</span> : null}
                        {finding.decidedAt ? (
                          <span className="report-table__date muted small">
                            {utcDateTime(finding.decidedAt)}
                          </span>
                        ) : null}
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  {hasNotes ? (
                    <td data-label="Note" className="report-table__note small">
                      {finding.note ?? ''}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <div className="table__foot report-pager">
        <span>
          {view.cursor ? (
            <Link
              href={`${base}${reportHref({ ...view, cursor: undefined })}`}
              scroll={false}
              prefetch={false}
              data-testid="report-first-page"
            >
              ← First page
            </Link>
          ) : null}
        </span>
        <span>
          {nextHref ? (
            <Link
              href={`${base}${nextHref}`}
              scroll={false}
              prefetch={false}
              rel="nofollow"
              data-testid="report-next-page"
            >
              Next page →
            </Link>
          ) : null}
        </span>
      </div>
    </section>
  );
}
