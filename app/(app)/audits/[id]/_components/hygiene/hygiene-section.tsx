'use client';
// The audit page's Hygiene tab: the sitemap lint's rules grouped by severity (count, fix,
// examples on demand), the files ranked by dirt (share of their entries on the prune list, flagged above
// 1 %), "Re-check" for reviewers, a waiting state while a lint runs (polled, lib/hygiene/audit/hooks.ts), and the
// corrected sitemap set's builder once the audit has findings.
import { useId, useState } from 'react';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { DateTime } from '@/components/ui/date-time';
import { formErrors } from '@/lib/client/field-errors';
import { formatCount } from '@/lib/core/format';
import { useAuditLint, useRecheckLint } from '@/lib/hygiene/audit/hooks';
import { isLintActive, LINT_FILES_MAX, type LintFileDto, type LintRuleDto } from '@/lib/hygiene/audit/schema';
import type { Severity } from '@/lib/hygiene/types';
import { SitemapSetBuilder } from '../sitemap-set/sitemap-set-builder';
import styles from './hygiene.module.css';
import { flaggedSentence, percent, ruleTitle } from './hygiene-words';

const FILES_PAGE = 50;

const GROUPS: { severity: Severity; title: string; tone: 'danger' | 'warning' | 'info' }[] = [
  { severity: 'error', title: 'Errors', tone: 'danger' },
  { severity: 'warning', title: 'Warnings', tone: 'warning' },
  { severity: 'info', title: 'Info', tone: 'info' },
];

function RuleItem({ rule }: { rule: LintRuleDto }) {
  return (
    <li className={styles['hygiene-rule']} data-testid={`hygiene-rule-${rule.code}`}>
      <details>
        <summary>
          <span className={styles['hygiene-rule__title']}>{rule.title}</span>{' '}
          <span className={styles['hygiene-rule__count']}>{formatCount(rule.count)}</span>
        </summary>
        <p className="small">
          <strong>Fix:</strong> {rule.fix}
        </p>
        {/* The code is for the API, the CLI's --json and a search in the docs; the title says it for people. */}
        <p className={`muted small ${styles['hygiene-rule__code']}`}>
          Rule <code>{rule.code}</code>
        </p>
        {rule.examples.length > 0 ? (
          <ul className={`${styles['hygiene-examples']} small`}>
            {rule.examples.map((example, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: examples are a fixed list in stored order
              <li key={index}>
                {example.url ? <span className="mono">{example.url}</span> : null}
                <span className="muted">
                  {example.url ? ' in ' : ''}
                  {example.file}
                  {example.line ? `:${example.line}` : ''}
                  {example.detail ? ` — ${example.detail}` : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </details>
    </li>
  );
}

/** No rule fired: the files are well-formed, which says nothing of whether their URLs belong in them (the
 * dirt below judges that), so the sentence points there rather than calling the files clean. */
function NoRuleFired({ flagged }: { flagged: number }) {
  return (
    <p data-testid="hygiene-clean">
      No hygiene rule fired: the sitemap files are well-formed.{' '}
      {flagged === 0
        ? 'No file has more than 1 % of its entries on the prune list either.'
        : `What they list is another matter: ${flagged === 1 ? '1 file has more than 1 % of its' : `${formatCount(flagged)} files have more than 1 % of their`} entries on the prune list (Files by dirt, below).`}
    </p>
  );
}

function RuleGroups({ rules, flagged }: { rules: LintRuleDto[]; flagged: number }) {
  if (rules.length === 0) return <NoRuleFired flagged={flagged} />;
  return (
    <>
      {GROUPS.map((group) => {
        const list = rules.filter((rule) => rule.severity === group.severity);
        if (list.length === 0) return null;
        return (
          <div key={group.severity} className="stack" data-testid={`hygiene-group-${group.severity}`}>
            <h3>
              <Badge tone={group.tone}>{group.title}</Badge>{' '}
              <span className="muted small">
                {list.length === 1 ? '1 rule' : `${list.length} rules`},{' '}
                {formatCount(list.reduce((n, rule) => n + rule.count, 0))} found
              </span>
            </h3>
            <ul className={styles['hygiene-rules']}>
              {list.map((rule) => (
                <RuleItem key={rule.code} rule={rule} />
              ))}
            </ul>
          </div>
        );
      })}
    </>
  );
}

function FileRanking({
  files,
  total,
  flagged,
  onMore,
  isLoading,
}: {
  files: LintFileDto[];
  total: number;
  flagged: number;
  onMore: () => void;
  isLoading: boolean;
}) {
  if (total === 0) return <p className="muted">No file lists URLs.</p>;
  return (
    <>
      <p className="muted small">{flaggedSentence(flagged, total)}</p>
      <ol className={styles['hygiene-files']} data-testid="hygiene-files">
        {files.map((file) => (
          <li key={file.fileId} className={styles['hygiene-file']} data-flagged={file.flagged}>
            <span className={`mono ${styles['hygiene-file__url']}`}>{file.url}</span>
            <span className={styles['hygiene-file__dirt']}>
              <strong>{percent(file.dirt)}</strong>{' '}
              <span className="muted small">
                {formatCount(file.pruned)} of {formatCount(file.entries)} entries on the prune list
              </span>{' '}
              {file.flagged ? <Badge tone="warning">Over 1 %</Badge> : null}
            </span>
          </li>
        ))}
      </ol>
      {files.length < total && files.length + FILES_PAGE <= LINT_FILES_MAX ? (
        <button type="button" className="button button--small" onClick={onMore} disabled={isLoading}>
          Show {formatCount(Math.min(FILES_PAGE, total - files.length))} more of {formatCount(total)}
        </button>
      ) : files.length < total ? (
        <p className="muted small">
          The {formatCount(files.length)} dirtiest of {formatCount(total)} files (GET …/lint pages further).
        </p>
      ) : null}
    </>
  );
}

/** What the stored rows could not judge, and how to get it judged: a new audit reads what this one lacks (a
 * re-check re-reads the same rows, so it would not help). */
function NotJudged({ codes }: { codes: string[] }) {
  const robots = codes.includes('robots_disallowed');
  const serving = codes.filter((code) => code !== 'robots_disallowed');
  return (
    <div className={`${styles['hygiene-not-judged']} small`} data-testid="hygiene-not-judged">
      <p>
        <strong>Not judged for this audit:</strong> {codes.map(ruleTitle).join('; ')}.
      </p>
      <ul>
        {robots ? (
          <li>
            This audit read no robots.txt (its sitemaps were uploaded or given by their own URL). A new audit
            started from the site's address or its robots.txt reads it, and its Hygiene tab judges this rule.
          </li>
        ) : null}
        {serving.length > 0 ? (
          <li>
            This audit was read before the serving facts (Content-Type, gzip, BOM) were stored; a new audit of
            the same sitemaps stores them.
          </li>
        ) : null}
      </ul>
      <p className="muted">
        In a build pipeline, <code>sitemap-audit lint</code> judges {codes.length === 1 ? 'it' : 'them'} too
        (docs/hygiene.md).
      </p>
    </div>
  );
}

/** Uploaded files have no URL of their own: the site URL their relative locations resolve against, as guessed
 * or given, and a re-check with another one (reviewers). */
function UploadSiteUrl({
  current,
  isInferred,
  canRecheck,
  isBusy,
  fieldError,
  onRecheck,
}: {
  current: string;
  isInferred: boolean;
  canRecheck: boolean;
  isBusy: boolean;
  /** The server's refusal of the site URL, in a sentence. */
  fieldError: string | undefined;
  onRecheck: (siteUrl: string) => void;
}) {
  const [value, setValue] = useState(current);
  const id = useId();
  return (
    <form
      className="stack hygiene-site"
      data-testid="hygiene-site-url"
      onSubmit={(event) => {
        event.preventDefault();
        onRecheck(value.trim());
      }}
    >
      <p className="muted small">
        Uploaded files were judged against <code>{current}</code>
        {isInferred ? ' (the origin of their first absolute entry)' : ''}: their relative locations resolve
        against it and the host rules compare with it.
      </p>
      {canRecheck ? (
        <div className={styles['hygiene-site__row']}>
          <div className="field">
            <label htmlFor={id}>Site URL of the uploaded files</label>
            <input
              id={id}
              className="input"
              type="url"
              inputMode="url"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${id}-error` : undefined}
            />
            {fieldError ? (
              <p id={`${id}-error`} className="field__error">
                {fieldError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button" disabled={isBusy || value.trim() === ''}>
            Re-check with this site URL
          </button>
        </div>
      ) : null}
    </form>
  );
}

export function HygieneSection({ auditId, hasFindings }: { auditId: string; hasFindings: boolean }) {
  const canRecheck = useCan('reviewer');
  const [limit, setLimit] = useState(FILES_PAGE);
  const report = useAuditLint(auditId, limit);
  const recheck = useRecheckLint(auditId);
  // A refused site URL is said under its field; anything else above.
  const siteUrlError = formErrors(recheck.variables ? recheck.error : null, { siteUrl: 'Site URL' }).fields
    .siteUrl;
  const data = report.data;
  const isActive = data ? isLintActive(data.status) : false;
  const notJudged = (data?.summary?.notJudged as string[] | undefined) ?? [];

  return (
    <div className="stack" data-testid="hygiene-section">
      <section className="card card__body stack" aria-labelledby="hygiene-heading">
        <div className={styles['hygiene-head']}>
          <div>
            <h2 id="hygiene-heading">Sitemap hygiene</h2>
            <p className="muted small">
              The sitemap files graded by the lint rules (limits, URL hygiene, lastmod honesty, duplicates,
              how they are served), each with a fix, and the files ranked by dirt.
            </p>
          </div>
          {canRecheck ? (
            <button
              type="button"
              className="button"
              onClick={() => recheck.mutate(undefined)}
              disabled={isActive || recheck.isPending}
              data-testid="hygiene-recheck"
            >
              Re-check
            </button>
          ) : null}
        </div>
        {recheck.error && !siteUrlError ? (
          <Alert title="Could not start a re-check">{recheck.error.message}</Alert>
        ) : null}
        {report.isError ? (
          <Alert title="Could not load the sitemap lint">{report.error.message}</Alert>
        ) : null}
        {!data && !report.isError ? <p className="muted">Loading the sitemap lint…</p> : null}
        {isActive ? (
          <p role="status" className="hygiene-waiting" data-testid="hygiene-waiting">
            Grading the sitemap files…{' '}
            {data?.checkedAt ? 'The last result stays shown until it is done.' : ''}
          </p>
        ) : null}
        {data?.status === 'failed' ? (
          <Alert tone="warning" title="The last re-check failed">
            {data.lint?.error ?? 'The sitemap files could not be graded.'}{' '}
            {data.checkedAt ? 'The result below is the one before it.' : ''}
          </Alert>
        ) : null}
        {data?.status === 'none' ? (
          <p className="muted">
            The sitemap files of this audit have not been graded yet
            {canRecheck ? ': choose Re-check.' : '.'}
          </p>
        ) : null}
        {data?.checkedAt ? (
          <>
            <p className="muted small">
              Checked <DateTime iso={data.checkedAt} />.
            </p>
            {notJudged.length > 0 ? <NotJudged codes={notJudged} /> : null}
            {typeof data.summary?.siteUrl === 'string' ? (
              <UploadSiteUrl
                current={data.summary.siteUrl}
                isInferred={data.summary.siteUrlInferred === true}
                canRecheck={canRecheck}
                isBusy={isActive || recheck.isPending}
                fieldError={siteUrlError}
                onRecheck={(siteUrl) => recheck.mutate(siteUrl)}
              />
            ) : null}
            <RuleGroups rules={data.rules} flagged={data.filesFlagged} />
          </>
        ) : null}
      </section>
      {data?.checkedAt ? (
        <section className="card card__body stack" aria-labelledby="hygiene-files-heading">
          <h2 id="hygiene-files-heading">Files by dirt</h2>
          <FileRanking
            files={data.files}
            total={data.filesTotal}
            flagged={data.filesFlagged}
            onMore={() => setLimit((n) => n + FILES_PAGE)}
            isLoading={report.isFetching}
          />
        </section>
      ) : null}
      {hasFindings ? (
        <SitemapSetBuilder
          auditId={auditId}
          siteUrl={typeof data?.summary?.siteUrl === 'string' ? data.summary.siteUrl : null}
        />
      ) : (
        <p className="muted small">The corrected sitemap set is built from a reconciled audit's decisions.</p>
      )}
    </div>
  );
}
