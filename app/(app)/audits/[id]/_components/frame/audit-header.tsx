'use client';
// The audit page's header: name, status (and who cancelled it), its site (a link, and the site's rule for
// unreached rows when on), timings, the workers that ran its steps, the approval rule for unreached rows
// (admins switch it), and the actions the user's role allows: Cancel while the audit is queued or running
// (reviewers and admins), Delete (admins).
import Link from 'next/link';
import { useCan } from '@/app/session-context';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { useUpdateAuditSettings } from '@/lib/audits/hooks';
import { isActiveStatus } from '@/lib/audits/labels';
import { type AuditDto, prominentWarningsOf } from '@/lib/audits/schema';
import { formatDuration } from '@/lib/core/format';
import { phaseLabel } from '@/lib/runs/phases';
import { StatusBadge } from '../../../_components/status-badge';
import styles from './frame.module.css';

/** requireSpotCheckForUnreached: a switch for admins; for everyone else a line saying it is on. */
function SpotCheckRule({ audit }: { audit: AuditDto }) {
  const isAdmin = useCan('admin');
  const update = useUpdateAuditSettings(audit.id);
  const isOn = audit.settings?.requireSpotCheckForUnreached === true;
  if (!isAdmin) {
    return isOn ? (
      <span data-testid="spot-check-rule">Unreached rows need a confirming spot-check before approval</span>
    ) : null;
  }
  return (
    <span className={styles['spot-check-rule']} data-testid="spot-check-rule">
      <label className="choice">
        <input
          type="checkbox"
          checked={isOn}
          disabled={update.isPending}
          data-testid="spot-check-rule-toggle"
          onChange={(event) => update.mutate({ requireSpotCheckForUnreached: event.target.checked })}
        />
        <span>Unreached rows need a confirming spot-check (confirmed or dead) before approval</span>
      </label>
      {update.isError ? (
        <span className="field__error" role="alert">
          Not saved: {update.error.message}
        </span>
      ) : null}
    </span>
  );
}

/** "Site: <host>", linking to the site's page (its runs, trends and changes), and the site's approval rule
 * for unreached rows when it is on (admins change it on the site's Settings tab). Both come with the audit. */
function SiteLink({ site }: { site: NonNullable<AuditDto['site']> }) {
  return (
    <>
      <span data-testid="audit-site">
        Site: <Link href={`/sites/${site.id}`}>{site.host}</Link>
      </span>
      {site.settings.requireConfirmedUnreached ? (
        <span data-testid="site-confirmed-rule">
          This site approves unreached rows only once confirmed across two crawls
        </span>
      ) : null}
    </>
  );
}

/** Which machines' workers ran the audit's steps (many workers may share one database): the hosts in
 * the line, each claim (step, attempt, worker id, time) when opened. */
function StepWorkers({ records }: { records: AuditDto['stepWorkers'] }) {
  const formatTime = useDateTimeFormat();
  const hosts = [...new Set(records.map((r) => r.host || 'unknown host'))];
  return (
    <details className={styles['step-workers']} data-testid="audit-step-workers">
      <summary>Run on {hosts.join(', ')}</summary>
      <ul>
        {records.map((r) => (
          <li key={`${r.step}-${r.attempt}-${r.at}`}>
            {r.step} (attempt {r.attempt}): worker {r.worker} on {r.host || 'unknown host'},{' '}
            <time dateTime={r.at}>{formatTime(r.at)}</time>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function AuditHeader({
  audit,
  onCancel,
  isCancelling,
  onDelete,
  isDeleting,
}: {
  audit: AuditDto;
  onCancel: () => void;
  isCancelling: boolean;
  onDelete: () => void;
  isDeleting: boolean;
}) {
  const formatTime = useDateTimeFormat();
  const duration = formatDuration(audit.startedAt, audit.finishedAt);
  const canCancel = useCan('reviewer') && isActiveStatus(audit.status);
  const canDelete = useCan('admin');
  return (
    <div className="page-header">
      <div className="page-header__title">
        <p className="small">
          <Link href="/">← All audits</Link>
        </p>
        <h1 data-testid="audit-name">{audit.name}</h1>
        <div className="page-header__meta">
          <StatusBadge
            status={audit.status}
            testId="audit-status"
            warned={prominentWarningsOf(audit.warnings).length > 0}
          />
          {!isActiveStatus(audit.status) ? null : (
            <span data-testid="audit-phase">{phaseLabel(audit.phase)}</span>
          )}
          {audit.status === 'cancelled' && audit.cancelled ? (
            <span className={styles['audit-cancelled']} data-testid="audit-cancelled">
              Cancelled by <strong>{audit.cancelled.by}</strong> at{' '}
              <time dateTime={audit.cancelled.at}>{formatTime(audit.cancelled.at)}</time>
            </span>
          ) : null}
          {audit.site ? <SiteLink site={audit.site} /> : null}
          <span>Created {formatTime(audit.createdAt)}</span>
          {duration ? <span>Took {duration}</span> : null}
          {audit.stepWorkers.length > 0 ? <StepWorkers records={audit.stepWorkers} /> : null}
          <span>
            Matching: <strong>{audit.options.normalization === 'lenient' ? 'Lenient' : 'Exact'}</strong>
          </span>
          {audit.findings ? <SpotCheckRule audit={audit} /> : null}
        </div>
      </div>
      {canCancel || canDelete ? (
        <div className="page-header__actions">
          {canCancel ? (
            <ConfirmButton
              title="Cancel this audit?"
              message={
                <>
                  <strong>{audit.name}</strong> stops where it is now and ends as cancelled. This cannot be
                  undone: to run it again, start a new audit.
                </>
              }
              confirmLabel="Cancel audit"
              dismissLabel="Keep it running"
              busy={isCancelling}
              disabled={isCancelling}
              testId="cancel-audit"
              onConfirm={onCancel}
            >
              {isCancelling ? 'Cancelling…' : 'Cancel audit'}
            </ConfirmButton>
          ) : null}
          {canDelete ? (
            <ConfirmButton
              title="Delete this audit?"
              message={
                <>
                  <strong>{audit.name}</strong> and everything read for it (sitemap entries, crawl rows,
                  uploaded files) will be removed. This cannot be undone.
                </>
              }
              confirmLabel="Delete audit"
              busy={isDeleting}
              onConfirm={onDelete}
            >
              Delete
            </ConfirmButton>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
