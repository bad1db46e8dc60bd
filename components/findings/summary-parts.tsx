// Pieces of a findings summary shared by the audit page (interactive: reasons link to the filtered list,
// a signal warning or a file's bar filters the review) and the shared report (read-only, rendered on the
// server): counts per list, reason and decision, the warnings with their example URLs, the add-rule
// exclusions explained, and the two charts. No hooks, so both kinds of component can use them.
import type { ReactNode } from 'react';
import chartStyles from '@/components/charts/chart.module.css';
import { ReasonsPerFileChart } from '@/components/charts/reasons-per-file-chart';
import { ReasonsPerListChart } from '@/components/charts/reasons-per-list-chart';
import { Alert } from '@/components/ui/alert';
import { BreakableUrl } from '@/components/ui/breakable-url';
import type { AuditIssue } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import {
  type ReasonsPerFileData,
  type ReasonsPerListData,
  rankReasons,
  reasonColour,
} from '@/lib/findings/chart-data';
import { LIST_HINTS, listLabel, reasonLabel, sanityWarningTitle } from '@/lib/findings/format';
import { ADD_EXCLUSIONS, EXCLUDED_INFO, signalInfo } from '@/lib/findings/reasons';
import type { FindingList, FindingsOverview, TAddExcluded, TOtherHost } from '@/lib/findings/schema';
import styles from './summary-parts.module.css';
import { isSignalWarning, warningMessage } from './warning-words';

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
    <div className={styles['summary-list']} data-testid={`summary-${list}`}>
      <h3>
        {label(list, undefined, listLabel(list))}{' '}
        <span
          className={styles['summary-list__total']}
          data-testid={`summary-${list}-total`}
          data-value={summary.total}
        >
          {formatCount(summary.total)}
        </span>
      </h3>
      <p className="muted small">{LIST_HINTS[list]}</p>
      {reasons.length > 0 ? (
        <ul className={styles['reason-counts']}>
          {reasons.map(([reason, count]) => (
            <li key={reason} className={styles['reason-counts__item']}>
              <span className="reason-dot" style={{ background: reasonColour(reason) }} aria-hidden="true" />
              <span>{label(list, reason, reasonLabel(reason))}</span>
              <span className={styles['reason-counts__n']}>{formatCount(count)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Nothing in this list.</p>
      )}
      {decisions ? (
        <p className={`small ${styles['decision-counts']}`}>
          <span>{formatCount(decisions.approved)} approved</span>
          <span>{formatCount(decisions.rejected)} rejected</span>
          <span>{formatCount(decisions.pending)} pending</span>
        </p>
      ) : null}
    </div>
  );
}

/** The URLs a warning is about: the first few (up to 10) of `count`, folded until asked for. */
export function WarningExamples({
  count,
  examples,
}: {
  count: number | undefined;
  examples: readonly string[];
}) {
  if (examples.length === 0) return null;
  const total = Math.max(count ?? examples.length, examples.length);
  return (
    <details className={styles['warning-examples']} data-testid="warning-examples">
      <summary className="small">
        {total > examples.length
          ? `Show the first ${formatCount(examples.length)} of ${formatCount(total)} URLs`
          : `Show the ${examples.length === 1 ? 'URL' : `${formatCount(examples.length)} URLs`}`}
      </summary>
      <ul className={styles['warning-examples__list']}>
        {examples.map((example) => (
          <li key={example} className="mono">
            {example}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The audit's warnings about the reconciliation (and its signals): title, message, count and examples.
 * `action` adds a control to a warning (the audit page's "Show these rows"). */
export function WarningAlerts({
  warnings,
  testId,
  findings = null,
  action,
}: {
  warnings: readonly AuditIssue[];
  testId: string;
  findings?: FindingsOverview | null;
  action?: (warning: AuditIssue) => ReactNode;
}) {
  if (warnings.length === 0) return null;
  return (
    <div className="stack" style={{ gap: '0.5rem' }} data-testid={testId}>
      {warnings.map((warning) => (
        <Alert
          key={`${warning.code}:${warning.message}`}
          tone="warning"
          title={isSignalWarning(warning) ? signalInfo(warning.code).label : sanityWarningTitle(warning.code)}
        >
          {/* The code is for API users and tests (data-code), not for readers: the title says it in words. */}
          <p className={styles['warning-text']} data-code={warning.code}>
            {warningMessage(warning, findings)}
          </p>
          <WarningExamples count={warning.count} examples={warning.examples ?? []} />
          {action?.(warning)}
        </Alert>
      ))}
    </div>
  );
}

/** Crawled pages no sitemap declares that the Add list leaves out, in all five buckets, each explained. */
export function AddExcluded({
  excluded,
  otherHosts = [],
}: {
  excluded: TAddExcluded;
  /** The hosts behind `otherHost`, most pages first, each with one URL. */
  otherHosts?: readonly TOtherHost[];
}) {
  const total = ADD_EXCLUSIONS.reduce((sum, bucket) => sum + excluded[bucket], 0);
  return (
    <section className={styles['not-added']} data-testid="add-excluded" aria-labelledby="not-added-heading">
      <h3 id="not-added-heading">
        Not added{' '}
        <span className="muted small">
          {formatCount(total)} crawled {total === 1 ? 'page' : 'pages'} no sitemap declares, left off the Add
          list: each is counted under the first of these that applies
        </span>
      </h3>
      <dl className={styles['not-added__list']}>
        {ADD_EXCLUSIONS.map((bucket) => {
          const info = EXCLUDED_INFO[bucket];
          return (
            <div
              key={bucket}
              className={styles['not-added__item']}
              data-bucket={bucket}
              data-testid={`add-excluded-${bucket}`}
              data-value={excluded[bucket]}
            >
              <dt>
                <span className={styles['not-added__n']}>{formatCount(excluded[bucket])}</span> {info.label}
              </dt>
              <dd>
                {info.definition} <span className="muted">{info.fix}</span>
                {bucket === 'otherHost' && otherHosts.length > 0 ? (
                  <ul className={styles['not-added__hosts']} data-testid="add-excluded-hosts">
                    {otherHosts.map((h) => (
                      <li key={h.host}>
                        <BreakableUrl url={h.host} />: {formatCount(h.n)} {h.n === 1 ? 'page' : 'pages'}, e.g.{' '}
                        <BreakableUrl url={h.example} />
                      </li>
                    ))}
                  </ul>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** The two charts. `perFileState` replaces the per-file chart while its data loads or failed. */
export function ReasonCharts({
  perList,
  perFile,
  perFileState,
  className = 'grid-2',
  onSelectFile,
}: {
  perList: ReasonsPerListData;
  perFile: ReasonsPerFileData;
  perFileState?: ReactNode;
  className?: string;
  /** Makes each file's bar a filter of the review (the audit page). */
  onSelectFile?: (fileId: number) => void;
}) {
  return (
    <div className={className}>
      <figure
        className={`${chartStyles.chart} ${chartStyles['chart--contained']}`}
        data-testid="chart-reasons-per-list"
      >
        <figcaption>Reasons per list</figcaption>
        {perList.isEmpty ? (
          <p className="muted small">No findings to chart.</p>
        ) : (
          <ReasonsPerListChart data={perList} title="Findings per reason, by list" />
        )}
        {perList.foldedReasons > 0 ? (
          <p className="muted small">
            {perList.foldedReasons === 1
              ? '1 smaller reason is'
              : `${formatCount(perList.foldedReasons)} smaller reasons are`}{' '}
            grouped as “Other reasons”.
          </p>
        ) : null}
      </figure>
      <figure
        className={`${chartStyles.chart} ${chartStyles['chart--contained']}`}
        data-testid="chart-reasons-per-file"
      >
        <figcaption>Prune and held reasons per sitemap file</figcaption>
        {perFileState ??
          (perFile.isEmpty ? (
            <p className="muted small">No prune or held findings to chart.</p>
          ) : (
            <ReasonsPerFileChart
              data={perFile}
              title="Prune and held reasons per sitemap file"
              onSelectFile={onSelectFile}
            />
          ))}
        {onSelectFile && !perFile.isEmpty && !perFileState ? (
          <p className="muted small">Click a file’s bar to review only the rows it declares.</p>
        ) : null}
        {perFile.foldedFiles > 0 ? (
          <p className="muted small">The largest files are shown; the rest are grouped as “Other files”.</p>
        ) : null}
      </figure>
    </div>
  );
}
