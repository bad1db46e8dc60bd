'use client';
// Filters of the findings list: reason chips counted under every other active filter (each with its
// definition and usual fix behind a "?"), search, host, path prefix, sitemap file, signal, live verdict
// (the latest finished spot-check), Search Console state (with agrees/disagrees from a cross-reference link),
// review status and sort. Every change becomes the URL (and starts again from the first page).
import { useState } from 'react';
import { DebouncedInput } from '@/components/ui/debounced-input';
import chipStyles from '@/components/ui/filter-chips.module.css';
import { useSitemapFiles } from '@/lib/audits/hooks';
import { fileLabel } from '@/lib/audits/labels';
import { formatCount } from '@/lib/core/format';
import { rankReasons, reasonColour } from '@/lib/findings/chart-data';
import { GSC_FILTERS } from '@/lib/findings/evidence/gsc';
import { VERDICT_FILTERS, type VerdictFilter } from '@/lib/findings/evidence/live';
import { decisionLabel, type FindingView, filterOf, SORT_LABELS } from '@/lib/findings/format';
import { reasonInfo, signalInfo } from '@/lib/findings/reasons';
import { DECISIONS, type Decision, SIGNALS, SORTS } from '@/lib/findings/schema';
import { gscFilterLabel } from '@/lib/gsc/xref/labels';
import { useReasonCounts } from '@/lib/review/hooks';
import { verdictLabel } from '@/lib/spot-check/labels';
import { declaresUrls } from '../files/sitemap-tree';
import styles from './review.module.css';
import { sortOptions } from './review-view';
import type { HistoryMode } from './use-finding-view';

const HELP_ID = 'reason-help';

/** The verdict filter's options: each verdict by its badge's name, then the two groupings. */
function verdictFilterLabel(value: VerdictFilter): string {
  if (value === 'confirming') return 'Confirmed or dead';
  if (value === 'unchecked') return 'No finished check';
  return verdictLabel(value);
}

export function FindingsFilters({
  auditId,
  view,
  byReason,
  decisions,
  hasInlinks,
  onChange,
}: {
  auditId: string;
  view: FindingView;
  /** The whole list's rows per reason (the audit's summary): the chips and their order. */
  byReason: Record<string, number>;
  decisions: Record<Decision, number> | undefined;
  hasInlinks: boolean;
  onChange: (next: FindingView, mode?: HistoryMode) => void;
}) {
  const counts = useReasonCounts(auditId, filterOf(view));
  // Counts of another list (kept while this one loads) would put wrong numbers on these chips.
  const filtered = counts.data?.list === view.list ? counts.data : undefined;
  const files = useSitemapFiles(auditId);
  const [explained, setExplained] = useState<string | null>(null);

  const reasons = rankReasons(byReason).map(([reason, count]): [string, number] => [
    reason,
    filtered ? (filtered.byReason[reason] ?? 0) : count,
  ]);
  for (const [reason, count] of Object.entries(filtered?.byReason ?? {}))
    if (!reasons.some(([known]) => known === reason)) reasons.push([reason, count]);
  // A linked reason with no rows still gets a chip, so the active filter is always visible and removable.
  if (view.reason && !reasons.some(([reason]) => reason === view.reason)) reasons.push([view.reason, 0]);
  const allCount = filtered?.total ?? reasons.reduce((sum, [, count]) => sum + count, 0);
  const help = explained ? reasonInfo(explained) : null;

  const update = (patch: Partial<FindingView>, mode: HistoryMode = 'push') =>
    onChange({ ...view, ...patch, cursor: undefined }, mode);
  const hasFilters = Boolean(
    view.reason ||
      view.decision ||
      view.q ||
      view.host ||
      view.pathPrefix ||
      view.file !== undefined ||
      view.signal ||
      view.verdict ||
      view.gsc ||
      view.gscMatch,
  );
  const declaring = (files.data?.items ?? []).filter(declaresUrls);
  // Add rows are declared nowhere and carry no signal: the two filters would only ever empty the list.
  const isDeclaredList = view.list !== 'add';

  return (
    <div className={styles['findings-filters']}>
      <fieldset className={chipStyles['reason-chips']} aria-busy={counts.isFetching}>
        <legend className="visually-hidden">Reason</legend>
        <button
          type="button"
          className={chipStyles['filter-chip']}
          aria-pressed={!view.reason}
          onClick={() => update({ reason: undefined })}
        >
          All reasons{' '}
          <span className={chipStyles['filter-chip__n']} data-testid="reason-chip-count" data-reason="">
            {formatCount(allCount)}
          </span>
        </button>
        {reasons.map(([reason, count]) => {
          const info = reasonInfo(reason);
          return (
            <span key={reason} className={styles['chip-group']}>
              <button
                type="button"
                className={chipStyles['filter-chip']}
                aria-pressed={view.reason === reason}
                data-reason={reason}
                title={info.definition}
                onClick={() => update({ reason: view.reason === reason ? undefined : reason })}
              >
                <span
                  className="reason-dot"
                  style={{ background: reasonColour(reason) }}
                  aria-hidden="true"
                />
                {info.label}{' '}
                <span
                  className={chipStyles['filter-chip__n']}
                  data-testid="reason-chip-count"
                  data-reason={reason}
                >
                  {formatCount(count)}
                </span>
              </button>
              <button
                type="button"
                className={styles['chip-help']}
                aria-label={`What “${info.label}” means`}
                aria-expanded={explained === reason}
                aria-controls={HELP_ID}
                onClick={() => setExplained(explained === reason ? null : reason)}
              >
                ?
              </button>
            </span>
          );
        })}
      </fieldset>
      <div id={HELP_ID} className={styles['reason-help']} hidden={help === null} data-testid="reason-help">
        {help ? (
          <>
            <p>
              <strong>{help.label}:</strong> {help.definition}
            </p>
            <p>
              <span className={styles['reason-help__fix']}>Usual fix:</span> {help.fix}
            </p>
            <button type="button" className="button button--link small" onClick={() => setExplained(null)}>
              Hide the explanation
            </button>
          </>
        ) : null}
      </div>
      <div className={styles['findings-filters__row']}>
        <DebouncedInput
          label="Search URLs"
          type="search"
          value={view.q ?? ''}
          placeholder="Part of a URL"
          onCommit={(q) => update({ q: q || undefined }, 'replace')}
          className={styles['findings-filters__search']}
        />
        <DebouncedInput
          label="Host"
          value={view.host ?? ''}
          placeholder="www.example.com"
          onCommit={(host) => update({ host: host || undefined }, 'replace')}
          className={styles['findings-filters__host']}
        />
        <DebouncedInput
          label="Path prefix"
          value={view.pathPrefix ?? ''}
          placeholder="/blog/"
          onCommit={(pathPrefix) => update({ pathPrefix: pathPrefix || undefined }, 'replace')}
          className={styles['findings-filters__path']}
        />
        {isDeclaredList || view.file !== undefined ? (
          <div className={`field field--inline ${styles['findings-filters__file']}`}>
            <label htmlFor="findings-file" className="field__label field__label--small">
              Sitemap file
            </label>
            <select
              id="findings-file"
              className="select select--small"
              value={view.file ?? ''}
              onChange={(event) => update({ file: Number(event.target.value) || undefined })}
            >
              <option value="">Any file</option>
              {declaring.map((file) => (
                <option key={file.id} value={file.id}>
                  {fileLabel(file)}
                </option>
              ))}
              {view.file !== undefined && !declaring.some((file) => file.id === view.file) ? (
                <option value={view.file}>File #{view.file}</option>
              ) : null}
            </select>
          </div>
        ) : null}
        {isDeclaredList || view.signal ? (
          <div className="field field--inline">
            <label htmlFor="findings-signal" className="field__label field__label--small">
              Signal
            </label>
            <select
              id="findings-signal"
              className="select select--small"
              value={view.signal ?? ''}
              onChange={(event) =>
                update({ signal: SIGNALS.find((signal) => signal === event.target.value) })
              }
            >
              <option value="">Any signal</option>
              {SIGNALS.map((signal) => (
                <option key={signal} value={signal}>
                  {signalInfo(signal).label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="field field--inline">
          <label htmlFor="findings-verdict" className="field__label field__label--small">
            Live check
          </label>
          <select
            id="findings-verdict"
            className="select select--small"
            value={view.verdict ?? ''}
            onChange={(event) => update({ verdict: VERDICT_FILTERS.find((v) => v === event.target.value) })}
          >
            <option value="">Any verdict</option>
            {VERDICT_FILTERS.map((value) => (
              <option key={value} value={value}>
                {verdictFilterLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <div className="field field--inline">
          <label htmlFor="findings-gsc" className="field__label field__label--small">
            Search Console
          </label>
          <select
            id="findings-gsc"
            className="select select--small"
            value={view.gsc ?? ''}
            // A new state or bucket drops an agreement filter made for the old one (links set both).
            onChange={(event) =>
              update({ gsc: GSC_FILTERS.find((v) => v === event.target.value), gscMatch: undefined })
            }
          >
            <option value="">Any state</option>
            {GSC_FILTERS.map((value) => (
              <option key={value} value={value}>
                {gscFilterLabel(value)}
              </option>
            ))}
          </select>
          {view.gscMatch ? (
            <button
              type="button"
              className={chipStyles['filter-chip']}
              aria-pressed="true"
              data-testid="gsc-match-chip"
              onClick={() => update({ gscMatch: undefined })}
              title="Remove this filter"
            >
              {view.gscMatch === 'agrees' ? 'Agrees with our reason' : 'Disagrees with our reason'} ×
            </button>
          ) : null}
        </div>
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
            {sortOptions(view, hasInlinks).map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
        {hasFilters ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => onChange({ list: view.list, sort: view.sort })}
          >
            Clear filters
          </button>
        ) : null}
      </div>
    </div>
  );
}
