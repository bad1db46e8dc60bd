'use client';
// Filters of the findings list: reason chips with server-side counts, search, host, path prefix,
// decision and sort. Every change becomes the URL (and starts again from the first page).
import { DebouncedInput } from '@/components/ui/debounced-input';
import { formatCount } from '@/lib/audits/format';
import { rankReasons, reasonColour } from '@/lib/findings/chart-data';
import { decisionLabel, type FindingView, reasonLabel } from '@/lib/findings/format';
import { DECISIONS, type Decision, type FindingSort, SORTS } from '@/lib/findings/schema';
import type { HistoryMode } from './use-finding-view';

const SORT_LABELS: Record<FindingSort, string> = {
  id: 'Default order',
  url: 'URL, A to Z',
  '-url': 'URL, Z to A',
  lastmod: 'Last modified, oldest first',
  '-lastmod': 'Last modified, newest first',
};

export function FindingsFilters({
  view,
  byReason,
  decisions,
  onChange,
}: {
  view: FindingView;
  byReason: Record<string, number>;
  decisions: Record<Decision, number> | undefined;
  onChange: (next: FindingView, mode?: HistoryMode) => void;
}) {
  const reasons = rankReasons(byReason);
  const listTotal = reasons.reduce((sum, [, count]) => sum + count, 0);
  // A linked reason with no rows still gets a chip, so the active filter is always visible and removable.
  if (view.reason && !reasons.some(([reason]) => reason === view.reason)) reasons.push([view.reason, 0]);
  const update = (patch: Partial<FindingView>, mode: HistoryMode = 'push') =>
    onChange({ ...view, ...patch, cursor: undefined }, mode);

  return (
    <div className="findings-filters">
      <fieldset className="reason-chips">
        <legend className="visually-hidden">Reason</legend>
        <button
          type="button"
          className="filter-chip"
          aria-pressed={!view.reason}
          onClick={() => update({ reason: undefined })}
        >
          All reasons <span className="filter-chip__n">{formatCount(listTotal)}</span>
        </button>
        {reasons.map(([reason, count]) => (
          <button
            key={reason}
            type="button"
            className="filter-chip"
            aria-pressed={view.reason === reason}
            data-reason={reason}
            onClick={() => update({ reason: view.reason === reason ? undefined : reason })}
          >
            <span className="reason-dot" style={{ background: reasonColour(reason) }} aria-hidden="true" />
            {reasonLabel(reason)} <span className="filter-chip__n">{formatCount(count)}</span>
          </button>
        ))}
      </fieldset>
      <div className="findings-filters__row">
        <DebouncedInput
          label="Search URLs"
          type="search"
          value={view.q ?? ''}
          placeholder="Part of a URL"
          onCommit={(q) => update({ q: q || undefined }, 'replace')}
          className="findings-filters__search"
        />
        <DebouncedInput
          label="Host"
          value={view.host ?? ''}
          placeholder="www.example.com"
          onCommit={(host) => update({ host: host || undefined }, 'replace')}
          width="13rem"
        />
        <DebouncedInput
          label="Path prefix"
          value={view.pathPrefix ?? ''}
          placeholder="/blog/"
          onCommit={(pathPrefix) => update({ pathPrefix: pathPrefix || undefined }, 'replace')}
          width="11rem"
        />
        <div className="field field--inline">
          <label htmlFor="findings-decision" className="field__label field__label--small">
            Review status
          </label>
          <select
            id="findings-decision"
            className="select select--small"
            value={view.decision ?? ''}
            onChange={(event) => {
              const value = DECISIONS.find((decision) => decision === event.target.value);
              update({ decision: value });
            }}
          >
            <option value="">Any status</option>
            {DECISIONS.map((decision) => (
              <option key={decision} value={decision}>
                {decisionLabel(decision)}
                {decisions ? ` (${formatCount(decisions[decision])})` : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor="findings-sort" className="field__label field__label--small">
            Sort
          </label>
          <select
            id="findings-sort"
            className="select select--small"
            value={view.sort}
            onChange={(event) => update({ sort: SORTS.find((sort) => sort === event.target.value) ?? 'id' })}
          >
            {SORTS.filter(
              (sort) => view.list !== 'add' || !sort.endsWith('lastmod') || sort === view.sort,
            ).map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
