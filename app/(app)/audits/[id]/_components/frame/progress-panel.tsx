'use client';
// The live progress of a running audit: its phase and what that phase has counted. The count is the
// audit's own tile (files read, crawl rows stored: lib/audits/progress.ts), so the two always agree.
import { ProgressBar } from '@/components/ui/progress-bar';
import { progressPercent } from '@/lib/audits/format';
import { progressText } from '@/lib/audits/progress';
import type { AuditDto } from '@/lib/audits/schema';
import { phaseLabel } from '@/lib/runs/phases';
import styles from './frame.module.css';

export function ProgressPanel({ audit }: { audit: AuditDto }) {
  const isQueued = audit.status === 'queued';
  const percent = progressPercent(audit.progress);
  const text = progressText(audit.phase, audit.progress);
  return (
    <section
      className={`card card__body ${styles['progress-card']}`}
      aria-label="Progress"
      data-testid="audit-progress"
    >
      <div className={styles['progress-card__row']}>
        <strong>{isQueued ? 'Waiting for a worker…' : phaseLabel(audit.phase)}</strong>
        <span className="muted" data-testid="progress-text">
          {isQueued || !text ? '' : percent === null ? text : `${text} (${percent}%)`}
        </span>
      </div>
      <ProgressBar value={isQueued ? 0 : percent} label="Audit progress" />
    </section>
  );
}
