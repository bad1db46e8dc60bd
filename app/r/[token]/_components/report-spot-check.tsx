// The report's "Live spot-check" section (a server component): the audit's latest finished spot-check, with
// the app's own summary (verdict counts, stale-crawl warning, the three shares with their intervals) and its
// first checked rows with their verdict, final status and hop chain. URLs are text, never links, as in the
// rest of the report; nothing names who started the run.
import { SpotChecksSummary } from '@/app/(app)/audits/[id]/_components/spot-checks/spot-checks-summary';
import { VerdictBadge } from '@/app/(app)/audits/[id]/_components/spot-checks/spot-checks-verdict';
import spotItems from '@/app/(app)/audits/[id]/_components/spot-checks/spot-items.module.css';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { countText } from '@/lib/core/format';
import { reasonLabel } from '@/lib/findings/format';
import type { ReportSpotCheck, ReportSpotItem } from '@/lib/report/data';
import { chainText, utcDateTime } from '@/lib/report/format';

function HopChain({ item }: { item: ReportSpotItem }) {
  if (item.chain.length === 0) return <span className="muted">no answer</span>;
  return (
    <details className={spotItems['spot-hops']}>
      <summary>{chainText(item.chain)}</summary>
      <ol>
        {item.chain.map((hop, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a chain's order is its identity and never changes
          <li key={index} data-testid="spot-hop">
            <span className={spotItems['spot-hops__status']}>{hop.status}</span>{' '}
            <span className={`mono ${spotItems['spot-url']}`}>
              <BreakableUrl url={hop.url} />
            </span>
            {hop.location ? <span className="muted small"> → Location: {hop.location}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

function CheckedRows({ items, total }: { items: ReportSpotItem[]; total: number }) {
  const more = total - items.length;
  return (
    <>
      <div className={spotItems['spot-items-wrap']}>
        <table className={spotItems['spot-items']} data-testid="report-spot-items">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Reason</th>
              <th scope="col">Verdict</th>
              <th scope="col" className="num">
                Final
              </th>
              <th scope="col">Hops</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.findingId} data-testid="report-spot-item" data-verdict={item.verdict}>
                <td data-label="URL" className={spotItems['spot-items__url']}>
                  <span className={`mono ${spotItems['spot-url']}`}>
                    <BreakableUrl url={item.url} />
                  </span>
                </td>
                <td data-label="Reason" className={spotItems['spot-items__nowrap']}>
                  {reasonLabel(item.reason)}
                </td>
                <td data-label="Verdict">
                  <div className={spotItems['spot-items__verdict']}>
                    <VerdictBadge verdict={item.verdict} />
                    <span className="small">{item.explanation}</span>
                  </div>
                </td>
                <td data-label="Final" className={`num ${spotItems['spot-items__nowrap']}`}>
                  {item.finalStatus ?? '—'}
                </td>
                <td data-label="Hops">
                  <HopChain item={item} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more > 0 ? (
        <p className="muted small" data-testid="report-spot-more">
          and {countText(more, 'more checked row', 'more checked rows')}: the audit's page in the app lists
          all of them.
        </p>
      ) : null}
    </>
  );
}

export function ReportSpotCheckSection({
  run,
  items,
}: {
  run: ReportSpotCheck | null;
  items: ReportSpotItem[];
}) {
  return (
    <section
      className="card report-section"
      aria-labelledby="report-spot-heading"
      data-testid="report-spot-check"
    >
      <div className="card__header">
        <h2 id="report-spot-heading">Live spot-check</h2>
        {run ? (
          <span className="muted small" data-testid="report-spot-when">
            Checked {utcDateTime(run.finishedAt ?? run.createdAt)} · {countText(run.rows, 'row')}
            {run.status === 'partial' ? ' · some could not be checked' : ''}
          </span>
        ) : null}
      </div>
      <div className="card__body stack">
        {run ? (
          <>
            <p className="muted small">
              What the live site answered for the rows the latest finished spot-check fetched, and whether the
              crawl's reason for each still holds.
            </p>
            <SpotChecksSummary summary={run.summary} />
            <CheckedRows items={items} total={run.rows} />
          </>
        ) : (
          <p className="muted" data-testid="report-spot-none">
            No live spot-check was run for this audit.
          </p>
        )}
      </div>
    </section>
  );
}
