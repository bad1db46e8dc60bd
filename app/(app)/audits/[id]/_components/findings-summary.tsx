'use client';
// What reconciliation found: sanity warnings first, then counts per list and reason (each a link to the
// filtered list), decisions so far, add-rule exclusions and two charts.
import { type MouseEvent, useMemo } from 'react';
import { ReasonsPerFileChart } from '@/components/charts/reasons-per-file-chart';
import { ReasonsPerListChart } from '@/components/charts/reasons-per-list-chart';
import { Alert } from '@/components/ui/alert';
import { formatCount, formatDateTime } from '@/lib/audits/format';
import type { AuditIssue } from '@/lib/audits/schema';
import {
  prepareReasonsPerFile,
  prepareReasonsPerList,
  rankReasons,
  reasonColour,
} from '@/lib/findings/chart-data';
import { listLabel, reasonLabel, sanityWarningTitle, toSearchParams } from '@/lib/findings/format';
import { useFindingsByFile } from '@/lib/findings/hooks';
import { type FindingList, type FindingsOverview, LISTS } from '@/lib/findings/schema';

const LIST_HINTS: Record<FindingList, string> = {
  prune: 'Declared in the sitemap, but the crawl cannot back them up',
  add: 'Indexable pages the crawl found that no sitemap declares',
  held: 'Not safe to judge yet',
};

type OpenList = (list: FindingList, reason?: string) => void;

/** A real link (new tab, copy address) that switches the list in place on a plain click. */
function ListLink({
  list,
  reason,
  onOpen,
  children,
}: {
  list: FindingList;
  reason?: string;
  onOpen: OpenList;
  children: string;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(list, reason);
  };
  return (
    <a href={`?${toSearchParams({ list, reason, sort: 'id' })}`} onClick={onClick}>
      {children}
    </a>
  );
}

function ListCounts({
  list,
  findings,
  onOpen,
}: {
  list: FindingList;
  findings: FindingsOverview;
  onOpen: OpenList;
}) {
  const summary = findings[list];
  const decisions = findings.decisions[list];
  const reasons = rankReasons(summary.byReason);
  return (
    <div className="summary-list" data-testid={`summary-${list}`}>
      <h3>
        <ListLink list={list} onOpen={onOpen}>
          {listLabel(list)}
        </ListLink>{' '}
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
              <ListLink list={list} reason={reason} onOpen={onOpen}>
                {reasonLabel(reason)}
              </ListLink>
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

export function FindingsSummary({
  auditId,
  findings,
  warnings,
  onOpenList,
}: {
  auditId: string;
  findings: FindingsOverview;
  warnings: readonly AuditIssue[];
  onOpenList: OpenList;
}) {
  const perList = useMemo(() => prepareReasonsPerList(findings), [findings]);
  const byFile = useFindingsByFile(auditId);
  const perFile = useMemo(() => prepareReasonsPerFile(byFile.data, { top: 10 }), [byFile.data]);
  const excluded = findings.addExcluded;

  return (
    <section className="card" aria-labelledby="summary-heading" data-testid="findings-summary">
      <div className="card__header">
        <h2 id="summary-heading">Summary</h2>
        <span className="muted small">
          Reconciled {formatDateTime(findings.reconciledAt)}
          {findings.crawlTime ? ` · crawl of ${formatDateTime(findings.crawlTime)}` : ''}
        </span>
      </div>
      <div className="card__body stack">
        {warnings.length > 0 ? (
          <div className="stack" style={{ gap: '0.5rem' }} data-testid="sanity-warnings">
            {warnings.map((warning) => (
              <Alert key={warning.code} tone="warning" title={sanityWarningTitle(warning.code)}>
                {warning.message} <code className="small">{warning.code}</code>
              </Alert>
            ))}
          </div>
        ) : null}
        <div className="summary-lists">
          {LISTS.map((list) => (
            <ListCounts key={list} list={list} findings={findings} onOpen={onOpenList} />
          ))}
        </div>
        <p className="small" data-testid="add-excluded">
          <strong>Not added:</strong> {formatCount(excluded.non200)} non-200, {formatCount(excluded.noindex)}{' '}
          noindex, {formatCount(excluded.canonicalised)} canonicalised
        </p>
        <div className="grid-2">
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
            {byFile.isError ? (
              <p className="muted small">Could not load the per-file counts: {byFile.error.message}</p>
            ) : byFile.isPending ? (
              <div className="skeleton" style={{ height: '10rem' }} aria-hidden="true" />
            ) : perFile.isEmpty ? (
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
      </div>
    </section>
  );
}
