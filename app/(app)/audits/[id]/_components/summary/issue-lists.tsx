'use client';
// The audit's errors and warnings, each titled in words (its stable code only in data-code, for the API
// minded) and, for warnings about URLs, how many and the first of them. Long lists show the first few until
// asked.
import { useState } from 'react';
import { WarningExamples } from '@/components/findings/summary-parts';
import type { AuditDto, AuditError, AuditIssue } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import { issueTitle } from '@/lib/findings/issue-titles';
import styles from './summary.module.css';

const FIRST = 8;

function IssueCard({
  title,
  issues,
  testId,
}: {
  title: string;
  issues: readonly (AuditIssue | AuditError)[];
  testId: string;
}) {
  const [isAll, setIsAll] = useState(false);
  const shown = isAll ? issues : issues.slice(0, FIRST);
  const headingId = `${testId}-heading`;
  return (
    <section className="card" aria-labelledby={headingId} data-testid={testId}>
      <div className="card__header">
        <h2 id={headingId}>
          {title} <span className="muted">({formatCount(issues.length)})</span>
        </h2>
      </div>
      <div className="card__body stack" style={{ gap: '0.75rem' }}>
        <ul className={styles['issue-list']}>
          {shown.map((issue, index) => {
            const source = 'source' in issue ? issue.source : null;
            const title = issueTitle(issue.code);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: server-built list that is only ever appended to
              <li key={`${issue.code}-${index}`} className={styles.issue} data-code={issue.code}>
                <div className={styles.issue__text}>
                  {title ? <strong className={styles.issue__title}>{title}</strong> : null}
                  {issue.message}
                  {/* The source is often already in the message; repeat it only when it adds something. */}
                  {source && !issue.message.includes(source) ? (
                    <>
                      {' '}
                      <span className="muted small mono">({source})</span>
                    </>
                  ) : null}
                  {issue.examples && issue.examples.length > 0 ? (
                    <WarningExamples count={issue.count} examples={issue.examples} />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {issues.length > FIRST ? (
          <div>
            <button type="button" className="button button--small" onClick={() => setIsAll(!isAll)}>
              {isAll ? 'Show fewer' : `Show all ${formatCount(issues.length)}`}
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}

export function IssueLists({ audit }: { audit: AuditDto }) {
  const hasErrors = audit.errors.length > 0;
  const hasWarnings = audit.warnings.length > 0;
  if (!hasErrors && !hasWarnings) return null;
  return (
    <div className={hasErrors && hasWarnings ? 'grid-2' : 'stack'}>
      {hasErrors ? <IssueCard title="Errors" issues={audit.errors} testId="audit-errors" /> : null}
      {hasWarnings ? <IssueCard title="Warnings" issues={audit.warnings} testId="audit-warnings" /> : null}
    </div>
  );
}
