// One audit of the list: name and age, status with live progress, findings per list and how much of
// them is reviewed. A table row on wide screens; audit-list.module.css stacks its cells at phone width.
import Link from 'next/link';
import {
  crawlRowsText,
  entriesText,
  isPhaseShown,
  noFindingsText,
  notReviewedText,
} from '@/components/findings/audit-list-words';
import { ProgressBar } from '@/components/ui/progress-bar';
import { progressText } from '@/lib/audits/progress';
import type { AuditListItemDto } from '@/lib/audits/schema';
import { formatCount, progressPercent, reviewedShare } from '@/lib/core/format';
import { phaseLabel } from '@/lib/runs/phases';
import styles from './audit-list.module.css';
import { RelativeTime } from './relative-time';
import { StatusBadge } from './status-badge';

/** Status, and while running the phase and what it counted, in the audit page's words (progressText). */
function StatusCell({ audit }: { audit: AuditListItemDto }) {
  const isRunning = audit.status === 'running';
  const showPhase = isPhaseShown(audit);
  const text = isRunning ? progressText(audit.phase, audit.progress) : null;
  return (
    <div className={styles.status}>
      <StatusBadge status={audit.status} warned={audit.prominentWarnings.length > 0} />
      {showPhase ? (
        <span className={styles.phase} data-testid="list-progress">
          {phaseLabel(audit.phase)}
          {text ? ` · ${text}` : ''}
        </span>
      ) : null}
      {isRunning ? (
        <ProgressBar
          value={progressPercent(audit.progress)}
          label={`Progress of ${audit.name}`}
          size="small"
        />
      ) : null}
    </div>
  );
}

function FindingsCells({ audit }: { audit: AuditListItemDto }) {
  const findings = audit.findings;
  if (!findings) {
    const isFailed = audit.status === 'failed';
    return (
      <>
        <td className={styles.counts} data-label="Findings">
          <span
            className={`small ${isFailed ? styles.failure : 'muted'}`}
            data-testid="list-no-findings"
            title={isFailed && audit.failure ? audit.failure : undefined}
          >
            {noFindingsText(audit)}
          </span>
        </td>
        <td className="audit-list__reviewed" data-label="Reviewed">
          <span className="muted" aria-hidden="true">
            —
          </span>
          <span className="visually-hidden" data-testid="list-not-reviewed">
            {notReviewedText(audit)}
          </span>
        </td>
      </>
    );
  }
  const share = reviewedShare(findings);
  return (
    <>
      <td className={styles.counts} data-label="Findings">
        <span className={styles.count} data-testid="list-prune" data-value={findings.prune}>
          <span className={styles.countLabel}>Prune</span> {formatCount(findings.prune)}
        </span>
        <span className={styles.count} data-testid="list-add" data-value={findings.add}>
          <span className={styles.countLabel}>Add</span> {formatCount(findings.add)}
        </span>
        <span className={styles.count} data-testid="list-held" data-value={findings.held}>
          <span className={styles.countLabel}>Held</span> {formatCount(findings.held)}
        </span>
      </td>
      <td className="audit-list__reviewed" data-label="Reviewed">
        {share ? (
          <div className={styles.share} data-testid="list-reviewed" data-value={share.percent}>
            <span>
              {share.percent}%{' '}
              <span className="muted small">
                ({formatCount(share.decided)} of {formatCount(share.total)})
              </span>
            </span>
            <ProgressBar
              value={share.percent}
              label={`Reviewed share of ${audit.name}`}
              size="small"
              tone="success"
            />
          </div>
        ) : (
          <span className="muted small">Nothing to review</span>
        )}
      </td>
    </>
  );
}

export function AuditListRow({ audit }: { audit: AuditListItemDto }) {
  return (
    <tr data-testid="audit-row" data-id={audit.id}>
      <td className={`table__name ${styles.name}`}>
        <Link href={`/audits/${audit.id}`}>{audit.name}</Link>
        <span className={`muted small ${styles.meta}`}>
          <RelativeTime iso={audit.createdAt} /> · {entriesText(audit.sitemap.entries)}
          {audit.crawl.given ? ` · ${crawlRowsText(audit.crawl.rows)}` : ''}
        </span>
      </td>
      <td className="audit-list__status" data-label="Status">
        <StatusCell audit={audit} />
      </td>
      <FindingsCells audit={audit} />
    </tr>
  );
}
