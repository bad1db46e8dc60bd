// Pieces of a findings summary shared by the audit page (interactive: reasons link to the filtered list)
// and the shared report (read-only, rendered on the server): counts per list, reason and decision, the
// warnings, the add-rule exclusions and the two charts. No hooks, so both kinds of component can use them.
import type { ReactNode } from 'react';
import { ReasonsPerFileChart } from '@/components/charts/reasons-per-file-chart';
import { ReasonsPerListChart } from '@/components/charts/reasons-per-list-chart';
import { Alert } from '@/components/ui/alert';
import { formatCount } from '@/lib/audits/format';
import type { AuditIssue } from '@/lib/audits/schema';
import {
  type ReasonsPerFileData,
  type ReasonsPerListData,
  rankReasons,
  reasonColour,
} from '@/lib/findings/chart-data';
import { LIST_HINTS, listLabel, reasonLabel, sanityWarningTitle } from '@/lib/findings/format';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';

/** Renders a list or reason label, e.g. as a link to that part of the list; plain text by default. */
export type ListLabel = (list: FindingList, reason: string | undefined, label: string) => ReactNode;

export function ListCounts({
  list,
  findings,
  label = (_list, _reason, text) => text,
}: {
  list: FindingList;
  findings: FindingsOverview;
  label?: ListLabel;
}) {
  const summary = findings[list];
  const decisions = findings.decisions[list];
  const reasons = rankReasons(summary.byReason);
  return (
    <div className="summary-list" data-testid={`summary-${list}`}>
      <h3>
        {label(list, undefined, listLabel(list))}{' '}
        <span
          className="summary-list__total"
          data-testid={`summary-${list}-total`}
          data-value={summary.total}
        >
          {formatCount(summary.total)}
        </span>
      </h3>
      <p className="muted small">{LIST_HINTS[list]}</p>
      {reasons.length > 0 ? (
        <ul className="reason-counts">
          {reasons.map(([reason, count]) => (
            <li key={reason} className="reason-counts__item">
              <span className="reason-dot" style={{ background: reasonColour(reason) }} aria-hidden="true" />
              <span>{label(list, reason, reasonLabel(reason))}</span>
              <span className="reason-counts__n">{formatCount(count)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Nothing in this list.</p>
      )}
      {decisions ? (
        <p className="small decision-counts">
          <span>{formatCount(decisions.approved)} approved</span>
          <span>{formatCount(decisions.rejected)} rejected</span>
          <span>{formatCount(decisions.pending)} pending</span>
        </p>
      ) : null}
    </div>
  );
}

export function WarningAlerts({ warnings, testId }: { warnings: readonly AuditIssue[]; testId: string }) {
  if (warnings.length === 0) return null;
  return (
    <div className="stack" style={{ gap: '0.5rem' }} data-testid={testId}>
      {warnings.map((warning) => (
        <Alert
          key={`${warning.code}:${warning.message}`}
          tone="warning"
          title={sanityWarningTitle(warning.code)}
        >
          {warning.message} <code className="small">{warning.code}</code>
        </Alert>
      ))}
    </div>
  );
}

export function AddExcluded({ excluded }: { excluded: FindingsOverview['addExcluded'] }) {
  return (
    <p className="small" data-testid="add-excluded">
      <strong>Not added:</strong> {formatCount(excluded.non200)} non-200, {formatCount(excluded.noindex)}{' '}
      noindex, {formatCount(excluded.canonicalised)} canonicalised
    </p>
  );
}

/** The two charts. `perFileState` replaces the per-file chart while its data loads or failed. */
export function ReasonCharts({
  perList,
  perFile,
  perFileState,
  className = 'grid-2',
}: {
  perList: ReasonsPerListData;
  perFile: ReasonsPerFileData;
  perFileState?: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <figure className="chart" data-testid="chart-reasons-per-list">
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
      <figure className="chart" data-testid="chart-reasons-per-file">
        <figcaption>Prune and held reasons per sitemap file</figcaption>
        {perFileState ??
          (perFile.isEmpty ? (
            <p className="muted small">No prune or held findings to chart.</p>
          ) : (
            <ReasonsPerFileChart data={perFile} title="Prune and held reasons per sitemap file" />
          ))}
        {perFile.foldedFiles > 0 ? (
          <p className="muted small">The largest files are shown; the rest are grouped as “Other files”.</p>
        ) : null}
      </figure>
    </div>
  );
}
