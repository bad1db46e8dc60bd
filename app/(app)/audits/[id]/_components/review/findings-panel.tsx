'use client';
// The side panel for the focused finding: the decision (as radios, so the page keeps one "Approve"
// button), what each of its reasons and signals means and how it is usually fixed, the evidence in
// sentences and raw, its target, crawl facts, every sitemap file declaring it, the latest finished live
// spot-check (verdict, explanation, the hop chain in order), what Search Console says of the URL (state,
// Google's reason, last crawled, whether it agrees with ours, the import it came from) and the decision history. Approving is off, with
// the reason, while the audit requires a confirming spot-check the row lacks.
import { useEffect, useRef } from 'react';
import { ReasonExplanations } from '@/components/findings/reason-explanations';
import { targetKindLabel } from '@/components/findings/target-words';
import { Alert } from '@/components/ui/alert';
import { formatCount, formatDateTime } from '@/lib/core/format';
import {
  decisionLabel,
  evidenceLines,
  formatLastmod,
  listLabel,
  reasonLabel,
  sitemapFileLabel,
} from '@/lib/findings/format';
import { safeHref } from '@/lib/findings/links';
import { DECISIONS, type Decision, type FindingDetailDto, type FindingDto } from '@/lib/findings/schema';
import { gscAgreementText } from '@/lib/gsc/xref/labels';
import { useFinding } from '@/lib/review/hooks';
import { verdictLabel } from '@/lib/spot-check/labels';
import { VerdictBadge } from '../spot-checks/spot-checks-verdict';
import { GscBadge } from './findings-table';
import styles from './review.module.css';

function rawValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** What the live site answered at the row's latest finished spot-check: the list row's summary at once,
 * the detail's evidence (every hop, noindex, canonical) once it has loaded. */
function LiveCheck({ finding, detail }: { finding: FindingDto; detail: FindingDetailDto | undefined }) {
  const check = detail?.spotCheck ?? finding.spotCheck;
  const evidence = detail?.spotCheck ?? null;
  return (
    <section
      className="stack"
      style={{ gap: '0.4rem' }}
      aria-labelledby="panel-live"
      data-testid="panel-live"
    >
      <h3 id="panel-live">Live check</h3>
      {!check ? (
        <p className="muted small">
          No finished spot-check has checked this URL yet. Start one from the Live spot-check panel.
        </p>
      ) : (
        <>
          <p className="small" data-testid="panel-live-verdict" data-verdict={check.verdict}>
            <VerdictBadge verdict={check.verdict} />{' '}
            <span className="muted">
              checked {formatDateTime(check.checkedAt)}
              {check.finalStatus !== null ? `, answered ${check.finalStatus}` : ''}
            </span>
          </p>
          {evidence ? <p className="small">{evidence.explanation}</p> : null}
          {evidence?.error ? (
            <p className="small field__error">
              {verdictLabel('error')}: {evidence.error.message}
            </p>
          ) : null}
          {evidence && evidence.chain.length > 0 ? (
            <ol className={styles['live-chain']} data-testid="panel-live-chain">
              {evidence.chain.map((hop, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a chain's order is its identity and never changes
                <li key={index}>
                  <strong>{hop.status}</strong> <span className="mono">{hop.url}</span>
                  {hop.location ? (
                    <span className="muted small">
                      {' '}
                      → Location: <span className="mono">{hop.location}</span>
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
          {evidence ? (
            <p className="muted small">
              {evidence.noindex ? 'noindex · ' : ''}
              {evidence.canonical ? `canonical ${evidence.canonical} · ` : ''}
              {evidence.contentType ? `${evidence.contentType} · ` : ''}
              {evidence.ms} ms
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

const GSC_SOURCES = {
  drilldown: 'a page-indexing export',
  performance: 'a Performance pages export',
  inspection: 'a URL Inspection',
} as const;

/** What Search Console says of the row's URL now (the latest import that lists it, or a newer URL
 * Inspection): the list row's summary at once, where it came from once the detail has loaded. */
function SearchConsole({ finding, detail }: { finding: FindingDto; detail: FindingDetailDto | undefined }) {
  const gsc = detail?.gsc ?? finding.gsc;
  const source = detail?.gsc ?? null;
  return (
    <section className="stack" style={{ gap: '0.4rem' }} aria-labelledby="panel-gsc" data-testid="panel-gsc">
      <h3 id="panel-gsc">Search Console</h3>
      {!gsc ? (
        <p className="muted small">
          No Search Console import names this URL. Import page-indexing or Performance exports in the Search
          Console section.
        </p>
      ) : (
        <>
          <p className="small" data-testid="panel-gsc-state" data-gsc-state={gsc.state}>
            <GscBadge gsc={gsc} list={finding.list} />
            {gsc.lastCrawled ? <span className="muted"> last crawled {gsc.lastCrawled}</span> : null}
          </p>
          {gsc.reason ? (
            <p className="small">
              Google says: <q data-testid="panel-gsc-reason">{gsc.reason}</q>
            </p>
          ) : null}
          <p className="small" data-testid="panel-gsc-agreement" data-agrees={String(gsc.agrees)}>
            {gscAgreementText(gsc, finding.list === 'prune')}
          </p>
          <p className="muted small" data-testid="panel-gsc-source">
            From {GSC_SOURCES[gsc.source]}
            {source
              ? `${source.scope ? ` (${source.scope})` : ''}, ${gsc.source === 'inspection' ? 'inspected' : 'imported'} ${formatDateTime(source.importedAt)}`
              : ''}
          </p>
        </>
      )}
    </section>
  );
}

/** Who decided the row, when, and their note; nothing while it is pending. */
function DecidedBy({ finding }: { finding: FindingDto }) {
  if (!finding.decidedBy) return null;
  return (
    <p className="muted small">
      {decisionLabel(finding.decision)} by {finding.decidedBy} on {formatDateTime(finding.decidedAt)}
      {finding.note ? `: “${finding.note}”` : ''}
    </p>
  );
}

export function FindingsPanel({
  auditId,
  finding,
  approvalBlocked = null,
  error = null,
  canDecide = true,
  onDecide,
  onClose,
}: {
  auditId: string;
  finding: FindingDto;
  /** Why approving this row is refused now (the audit requires a confirming spot-check), or null. */
  approvalBlocked?: string | null;
  /** Why the last decision failed, said here while the panel covers the review's own message. */
  error?: string | null;
  /** The user may decide (a reviewer or admin); a viewer reads the decision instead of radios. The
   * review always says; the default is for tests that render the panel alone. */
  canDecide?: boolean;
  onDecide: (finding: FindingDto, decision: Decision) => void;
  onClose: () => void;
}) {
  const detail = useFinding(auditId, finding.id);
  const heading = useRef<HTMLHeadingElement>(null);
  const openedFor = useRef<number | null>(null);
  useEffect(() => {
    // Take focus when the panel opens, not each time it follows the focused row.
    if (openedFor.current === null) heading.current?.focus();
    openedFor.current = finding.id;
  }, [finding.id]);

  const lines = evidenceLines(finding);
  const evidence = Object.entries(finding.evidence ?? {});
  const current = detail.data?.id === finding.id ? detail.data : undefined;
  const history = current?.history;
  // An approved row stays selectable (it is the current value); only approving anew is refused.
  const isApproveOff = approvalBlocked !== null && finding.decision !== 'approved';
  const { target } = finding;
  const href = safeHref(finding.url);

  return (
    <aside
      className={styles['side-panel']}
      aria-labelledby="finding-panel-heading"
      data-testid="finding-panel"
    >
      <div className={styles['side-panel__header']}>
        <h2 id="finding-panel-heading" ref={heading} tabIndex={-1}>
          {listLabel(finding.list)} · {reasonLabel(finding.reason)}
        </h2>
        <button type="button" className="button button--small" onClick={onClose}>
          Close details
        </button>
      </div>
      <div className={`${styles['side-panel__body']} stack`}>
        <p className={`mono ${styles['side-panel__url']}`}>
          {/* Only an http(s) URL is a link: a stored javascript: or data: location stays text. */}
          {href ? (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {finding.url}
            </a>
          ) : (
            <span data-testid="panel-url-text">{finding.url}</span>
          )}
        </p>
        {canDecide ? (
          <fieldset className="fieldset">
            <legend>Decision for this URL</legend>
            <div className={`choice-group ${styles['choice-group--inline']} ${styles['decision-choices']}`}>
              {DECISIONS.map((decision) => (
                <label key={decision} className="choice">
                  <input
                    type="radio"
                    name={`decision-${finding.id}`}
                    value={decision}
                    checked={finding.decision === decision}
                    disabled={decision === 'approved' && isApproveOff}
                    aria-describedby={
                      decision === 'approved' && isApproveOff ? 'panel-approve-blocked' : undefined
                    }
                    onChange={() => onDecide(finding, decision)}
                  />
                  <span>{decisionLabel(decision)}</span>
                </label>
              ))}
            </div>
            {isApproveOff ? (
              <p className="small" id="panel-approve-blocked" data-testid="panel-approve-blocked">
                {approvalBlocked}
              </p>
            ) : null}
            {error ? (
              <p className="field__error" role="alert" data-testid="panel-decision-error">
                {error}
              </p>
            ) : null}
            <DecidedBy finding={finding} />
          </fieldset>
        ) : (
          <section className="stack" style={{ gap: '0.25rem' }} data-testid="panel-decision-read-only">
            <h3>Decision</h3>
            <p>
              <strong>{decisionLabel(finding.decision)}</strong>
            </p>
            <DecidedBy finding={finding} />
          </section>
        )}
        <LiveCheck finding={finding} detail={current} />
        <SearchConsole finding={finding} detail={current} />
        <ReasonExplanations reasons={finding.reasons} signals={finding.signals} />
        <section className="stack" style={{ gap: '0.4rem' }} aria-labelledby="panel-evidence">
          <h3 id="panel-evidence">Evidence</h3>
          {lines.length > 0 ? (
            <ul className={styles['evidence-lines']} data-testid="evidence-lines">
              {lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No evidence beyond the reason.</p>
          )}
        </section>
        <dl className="kv" data-testid="panel-facts">
          {target ? (
            <>
              <dt>{targetKindLabel(target.kind)}</dt>
              <dd className="mono" data-testid="panel-target">
                {target.url}
                {target.status !== null ? <span className="muted"> (answers {target.status})</span> : null}
              </dd>
            </>
          ) : null}
          <dt>
            {finding.sitemapFiles.length > 1
              ? `Sitemap files (${finding.sitemapFiles.length})`
              : 'Sitemap file'}
          </dt>
          <dd data-testid="panel-files">
            {finding.sitemapFiles.length === 0 ? (
              <span className="muted">Not declared in a sitemap</span>
            ) : (
              <ul className={styles['panel-files']}>
                {finding.sitemapFiles.map((file) => (
                  <li key={file.id} className="mono" title={file.url ?? undefined}>
                    {sitemapFileLabel(file)}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>HTTP status</dt>
          <dd>{finding.status ?? '—'}</dd>
          <dt>Canonical</dt>
          {/* Monospace for a URL only: a dash in it reads as a short raised "–" beside the other fields' "—". */}
          <dd className={finding.canonical ? 'mono' : undefined}>{finding.canonical ?? '—'}</dd>
          <dt>Crawl depth</dt>
          <dd>{finding.depth ?? '—'}</dd>
          <dt>Inlinks</dt>
          <dd>{finding.inlinks === null ? '—' : formatCount(finding.inlinks)}</dd>
          <dt>Last modified</dt>
          <dd>{formatLastmod(finding.lastmod)}</dd>
        </dl>
        <details>
          <summary className="small">Raw evidence ({evidence.length})</summary>
          <dl className={`kv ${styles['kv--raw']}`}>
            {evidence.map(([key, value]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt className="mono">{key}</dt>
                <dd className="mono">{rawValue(value)}</dd>
              </div>
            ))}
          </dl>
        </details>
        <section className="stack" style={{ gap: '0.4rem' }} aria-labelledby="panel-history">
          <h3 id="panel-history">History</h3>
          {detail.isError ? <Alert title="Could not load the history">{detail.error.message}</Alert> : null}
          {history === undefined && !detail.isError ? <p className="muted small">Loading…</p> : null}
          {history && history.length === 0 ? <p className="muted small">No decisions yet.</p> : null}
          {history && history.length > 0 ? (
            <ol className={styles.history} data-testid="decision-history">
              {history.map((entry) => (
                <li key={`${entry.at}-${entry.to}-${entry.by}`}>
                  <strong>{decisionLabel(entry.to)}</strong>{' '}
                  <span className="muted">
                    (was {decisionLabel(entry.from).toLowerCase()}) by {entry.by}, {formatDateTime(entry.at)}
                  </span>
                  {entry.note ? <p className="small">“{entry.note}”</p> : null}
                </li>
              ))}
            </ol>
          ) : null}
        </section>
      </div>
    </aside>
  );
}
