'use client';
// The live progress of a running audit: its phase and how far that phase has got.
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatCount, progressPercent } from '@/lib/audits/format';
import type { AuditDto } from '@/lib/audits/schema';
import { phaseLabel } from '@/lib/runs/phases';

export function ProgressPanel({ audit }: { audit: AuditDto }) {
  const percent = progressPercent(audit.progress);
  const isQueued = audit.status === 'queued';
  return (
    <section className="card card__body progress-card" aria-label="Progress" data-testid="audit-progress">
      <div className="progress-card__row">
        <strong>{isQueued ? 'Waiting for a worker…' : phaseLabel(audit.phase)}</strong>
        <span className="muted" data-testid="progress-text">
          {audit.progress.total > 0
            ? `${formatCount(audit.progress.done)} of ${formatCount(audit.progress.total)} (${percent}%)`
            : isQueued
              ? ''
              : `${formatCount(audit.progress.done)} done`}
        </span>
      </div>
      <ProgressBar value={isQueued ? 0 : percent} label="Audit progress" />
    </section>
  );
}
