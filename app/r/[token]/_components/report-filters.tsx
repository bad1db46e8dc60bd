// The report list's filters (a server component): one link per reason of the list and a URL search. Both
// navigate on the client without scrolling (next/link, next/form with scroll={false}), so a reader who
// filters half way down the page stays where they were; the URL keeps the filters, so a link shows them.
import Form from 'next/form';
import Link from 'next/link';
import chipStyles from '@/components/ui/filter-chips.module.css';
import { formatCount } from '@/lib/core/format';
import { reasonInfo } from '@/lib/findings/reasons';
import { type ReportView, reportHref } from '@/lib/report/shared';

function ReasonLink({
  base,
  view,
  reason,
  label,
  count,
}: {
  base: string;
  view: ReportView;
  reason: string | undefined;
  label: string;
  count: number;
}) {
  return (
    <Link
      href={`${base}${reportHref({ list: view.list, reason, q: view.q })}`}
      scroll={false}
      prefetch={false}
      className={chipStyles['filter-chip']}
      aria-current={view.reason === reason ? 'true' : undefined}
      data-testid={`report-reason-filter-${reason ?? 'all'}`}
    >
      {label} <span className={chipStyles['filter-chip__n']}>{formatCount(count)}</span>
    </Link>
  );
}

export function ReportFilters({
  base,
  view,
  reasons,
  total,
}: {
  /** The report's path, `/r/<token>`. */
  base: string;
  view: ReportView;
  /** The list's reasons with their counts, largest first. */
  reasons: [string, number][];
  total: number;
}) {
  return (
    <div className="report-filters" data-testid="report-filters">
      {reasons.length > 1 || view.reason ? (
        <nav aria-label="Filter by reason" className="report-filters__reasons">
          <ReasonLink base={base} view={view} reason={undefined} label="All reasons" count={total} />
          {reasons.map(([reason, count]) => (
            <ReasonLink
              key={reason}
              base={base}
              view={view}
              reason={reason}
              label={reasonInfo(reason).label}
              count={count}
            />
          ))}
        </nav>
      ) : null}
      <Form action={base} scroll={false} className="report-search" role="search" data-testid="report-search">
        <input type="hidden" name="list" value={view.list} />
        {view.reason ? <input type="hidden" name="reason" value={view.reason} /> : null}
        <label htmlFor="report-q" className="field__label field__label--small">
          Search URLs
        </label>
        <input
          key={view.q ?? ''}
          id="report-q"
          name="q"
          type="search"
          className="input report-search__input"
          defaultValue={view.q ?? ''}
          maxLength={500}
          placeholder="Part of a URL, e.g. /blog/"
        />
        <button type="submit" className="button button--small">
          Search
        </button>
        {view.q ? (
          <Link
            href={`${base}${reportHref({ list: view.list, reason: view.reason })}`}
            scroll={false}
            prefetch={false}
            className="small"
            data-testid="report-search-clear"
          >
            Clear search
          </Link>
        ) : null}
      </Form>
    </div>
  );
}
