'use client';
// What reconciliation found: sanity warnings first, then counts per list and reason (each a link to the
// filtered list), decisions so far, add-rule exclusions, the signals (each filters the review) and two
// charts (a file's bar filters the review too).
import { type MouseEvent, useMemo } from 'react';
import { AddExcluded, ListCounts, ReasonCharts, WarningAlerts } from '@/components/findings/summary-parts';
import summaryParts from '@/components/findings/summary-parts.module.css';
import { useDateTimeFormat } from '@/components/ui/date-time';
import type { AuditIssue } from '@/lib/audits/schema';
import { prepareReasonsPerFile, prepareReasonsPerList } from '@/lib/findings/chart-data';
import { toSearchParams } from '@/lib/findings/format';
import { type FindingList, type FindingSignal, type FindingsOverview, LISTS } from '@/lib/findings/schema';
import { useFindingsByFile } from '@/lib/review/hooks';
import type { FilterReview } from '../review/use-finding-view';
import styles from './summary.module.css';

const NO_BREAK = { whiteSpace: 'nowrap' } as const;

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

export function FindingsSummary({
  auditId,
  findings,
  warnings,
  signalWarnings,
  activeSignal,
  onOpenList,
  onFilter,
}: {
  auditId: string;
  findings: FindingsOverview;
  warnings: readonly AuditIssue[];
  signalWarnings: readonly AuditIssue[];
  activeSignal: FindingSignal | undefined;
  onOpenList: OpenList;
  onFilter: FilterReview;
}) {
  const formatTime = useDateTimeFormat();
  const perList = useMemo(() => prepareReasonsPerList(findings), [findings]);
  const byFile = useFindingsByFile(auditId);
  const perFile = useMemo(() => prepareReasonsPerFile(byFile.data, { top: 10 }), [byFile.data]);

  return (
    <section className="card" aria-labelledby="summary-heading" data-testid="findings-summary">
      <div className="card__header">
        <h2 id="summary-heading">Summary</h2>
        {/* Each date whole on its line ("2 Dec 2026, / 01:42" read badly on a phone). */}
        <span className="muted small">
          Reconciled <span style={NO_BREAK}>{formatTime(findings.reconciledAt)}</span>
          {findings.crawlTime ? (
            <>
              {' · crawl of '}
              <span style={NO_BREAK}>{formatTime(findings.crawlTime)}</span>
            </>
          ) : null}
        </span>
      </div>
      <div className="card__body stack">
        <WarningAlerts warnings={warnings} testId="sanity-warnings" findings={findings} />
        <div className={summaryParts['summary-lists']}>
          {LISTS.map((list) => (
            <ListCounts
              key={list}
              list={list}
              findings={findings}
              label={(l, reason, text) => (
                <ListLink list={l} reason={reason} onOpen={onOpenList}>
                  {text}
                </ListLink>
              )}
            />
          ))}
        </div>
        <AddExcluded excluded={findings.addExcluded} otherHosts={findings.otherHosts} />
        {signalWarnings.length > 0 ? (
          <section className={`stack ${styles.signals}`} aria-labelledby="signals-heading">
            <h3 id="signals-heading">Signals</h3>
            <WarningAlerts
              warnings={signalWarnings}
              testId="signal-warnings"
              findings={findings}
              action={(warning) => {
                const signal = warning.code as FindingSignal;
                const isActive = activeSignal === signal;
                return (
                  <div>
                    <button
                      type="button"
                      className="button button--small"
                      aria-pressed={isActive}
                      data-testid="signal-filter"
                      onClick={() => onFilter({ signal: isActive ? undefined : signal })}
                    >
                      Review only the findings with this signal
                    </button>
                  </div>
                );
              }}
            />
          </section>
        ) : null}
        <ReasonCharts
          onSelectFile={(file) => onFilter({ file })}
          perList={perList}
          perFile={perFile}
          perFileState={
            byFile.isError ? (
              <p className="muted small">Could not load the per-file counts: {byFile.error.message}</p>
            ) : byFile.isPending ? (
              <div className="skeleton" style={{ height: '10rem' }} aria-hidden="true" />
            ) : undefined
          }
        />
      </div>
    </section>
  );
}
