'use client';
import { ProgressBar } from '@/components/ui/progress-bar';
// The live progress of a running audit: its phase and what that phase has counted. The count is the
// audit's own tile (files read, crawl rows stored: lib/audits/progress.ts), so the two always agree.
import { RunStatus } from '@/components/ui/run-status';
import { progressText } from '@/lib/audits/progress';
import type { AuditDto } from '@/lib/audits/schema';
import { progressPercent } from '@/lib/core/format';
import { phaseLabel } from '@/lib/runs/phases';
import styles from './frame.module.css';

export function ProgressPanel({ audit }: { audit: AuditDto }) {
  const percent = progressPercent(audit.progress);
  const text = progressText(audit.phase, audit.progress);
  return (
    <section
      className={`card card__body ${styles['progress-card']}`}
      aria-label="Progress"
      data-testid="audit-progress"
    >
      <RunStatus
        layout="panel"
        status={audit.status}
        phase={phaseLabel(audit.phase)}
        progress={audit.progress}
        words={!text ? '' : percent === null ? text : `${text} (${percent}%)`}
        barLabel="Audit progress"
        testId="progress-text"
      />
    </section>
  );
}
