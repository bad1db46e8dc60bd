'use client';
// The live progress of a running audit: its phase and what that phase has counted. The count is the
// audit's own tile (files read, crawl rows stored: lib/audits/progress.ts), so the two always agree. While
// the audit crawls the site itself, the crawl's own totals: pages fetched and queued, answers by status.
import { RunStatus } from '@/components/ui/run-status';
import { progressText } from '@/lib/audits/progress';
import type { AuditDto } from '@/lib/audits/schema';
import { progressPercent } from '@/lib/core/format';
import { phaseLabel } from '@/lib/runs/phases';
import { crawlingWords, statusCountsWords } from '../crawl/crawler-words';
import styles from './frame.module.css';

export function ProgressPanel({ audit }: { audit: AuditDto }) {
  const percent = progressPercent(audit.progress);
  const crawling = audit.phase === 'crawling' ? (audit.crawl.crawler?.progress ?? null) : null;
  const text = crawling ? crawlingWords(crawling) : progressText(audit.phase, audit.progress);
  const statusCounts = crawling ? statusCountsWords(crawling.byStatus) : '';
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
        words={!text ? '' : percent === null || crawling ? text : `${text} (${percent}%)`}
        barLabel="Audit progress"
        testId="progress-text"
      />
      {statusCounts ? (
        <p className="muted small" data-testid="crawl-status-counts">
          <span className="visually-hidden">Answers so far: </span>
          {statusCounts}
        </p>
      ) : null}
    </section>
  );
}
