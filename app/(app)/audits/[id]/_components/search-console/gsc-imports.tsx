'use client';
// The Search Console section's imports: reviewers choose CSV exports or zips and import them;
// everyone sees the imports, newest first, with what each covered, the files it ignored, its progress while
// the worker reads it, or, when it failed, which file and line could not be read. Admins delete one.
import { useId, useState } from 'react';
import { FileList } from '@/app/(app)/audits/new/_components/file-list';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { DropZone } from '@/components/ui/drop-zone';
import { RunStatus, RunStatusHead } from '@/components/ui/run-status';
import { isActiveStatus } from '@/lib/audits/labels';
import { mergeFiles } from '@/lib/audits/new-audit-input';
import { formatBytes, formatCount, formatDateTime } from '@/lib/core/format';
import { GSC_ISSUE_CHOICES } from '@/lib/findings/evidence/gsc-reasons';
import { useDeleteGscImport, useGscImports, useStartGscImport } from '@/lib/gsc/hooks-imports';
import { describeExport, problemPlace } from '@/lib/gsc/import-labels';
import type { GscImportDto } from '@/lib/gsc/import-schema';
import { StatusBadge } from '../../../_components/status-badge';
import spotRuns from '../spot-checks/spot-runs.module.css';
import styles from './search-console.module.css';

function ImportForm({ auditId }: { auditId: string }) {
  const id = useId();
  const start = useStartGscImport(auditId);
  const [files, setFiles] = useState<File[]>([]);
  const [issue, setIssue] = useState('');
  return (
    <form
      className={`stack ${styles['gsc-import-form']}`}
      aria-label="Import from Search Console"
      onSubmit={(event) => {
        event.preventDefault();
        if (files.length === 0) return;
        start.mutate(
          { files, issue },
          {
            onSuccess: () => {
              setFiles([]);
              setIssue('');
            },
          },
        );
      }}
    >
      <DropZone
        id={`${id}-files`}
        label="Search Console exports"
        hint=".csv files or the .zip as Search Console downloads it; several at once"
        accept=".csv,.zip,.tsv,.txt,text/csv,application/zip"
        multiple
        chooseLabel="choose files"
        // Files chosen again (a second drop, the same file twice) are listed once.
        onFiles={(added) => setFiles((current) => mergeFiles(current, added))}
      >
        <FileList
          label="Chosen exports"
          files={files}
          onRemove={(index) => setFiles((current) => current.filter((_, i) => i !== index))}
        />
      </DropZone>
      <div className="field">
        <label htmlFor={`${id}-issue`} className="field__label">
          Issue of a lone Table.csv
        </label>
        <select
          id={`${id}-issue`}
          className="select"
          value={issue}
          aria-describedby={`${id}-issue-hint`}
          onChange={(e) => setIssue(e.target.value)}
          data-testid="gsc-import-issue"
        >
          <option value="">From its Metadata.csv</option>
          {GSC_ISSUE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
        <span id={`${id}-issue-hint`} className="field__hint">
          A drill-down's Table.csv shared without its Metadata.csv does not say which issue it lists: choose
          the one its Search Console page was titled with.
        </span>
      </div>
      <div>
        <button
          type="submit"
          className="button button--primary"
          disabled={files.length === 0 || start.isPending}
          data-testid="gsc-import-submit"
        >
          {start.isPending
            ? 'Uploading…'
            : files.length > 1
              ? `Import ${formatCount(files.length)} files`
              : 'Import'}
        </button>
      </div>
      {start.isError ? <Alert title="The files could not be imported">{start.error.message}</Alert> : null}
    </form>
  );
}

function ImportBody({ item }: { item: GscImportDto }) {
  if (isActiveStatus(item.status)) {
    return (
      <RunStatus
        status={item.status}
        phase="Reading files"
        progress={item.progress}
        words={`Reading files: ${formatCount(item.progress.done)} of ${formatCount(item.progress.total)}`}
        barLabel="Import progress"
        unknownTotal="empty"
        testId="gsc-import-progress"
      />
    );
  }
  if (item.status === 'failed') {
    return (
      <div className={`stack ${styles['gsc-import__problems']}`} data-testid="gsc-import-problems">
        <p className="small">Nothing was imported: these files could not be read.</p>
        {item.problems.length > 0 ? (
          <ul className={styles['gsc-import__list']}>
            {item.problems.flatMap((file) =>
              file.problems.map((p) => (
                <li key={`${file.name}:${p.line}:${p.message}`} className="small">
                  <strong className={styles['gsc-import__place']}>{problemPlace(file.name, p.line)}</strong>:{' '}
                  {p.message}
                </li>
              )),
            )}
          </ul>
        ) : (
          <p className="small muted">{item.errorMessage}</p>
        )}
      </div>
    );
  }
  if (item.status === 'cancelled')
    return <p className="small muted">Cancelled before the files were read.</p>;
  return (
    <div className="stack gsc-import__covered">
      <ul className={styles['gsc-import__list']} aria-label="What this import covered">
        {item.exports.map((exp) => (
          <li
            key={`${exp.folder}:${exp.kind}:${exp.files.join('|')}`}
            className="small"
            data-testid="gsc-import-export"
          >
            {describeExport(exp)}
            {exp.warnings.length > 0 ? <span className="muted"> · {exp.warnings.join(' · ')}</span> : null}
          </li>
        ))}
      </ul>
      {item.ignored.length > 0 ? (
        <details className="small">
          <summary>
            {formatCount(item.ignored.length)} {item.ignored.length === 1 ? 'file' : 'files'} ignored
          </summary>
          <ul className={styles['gsc-import__list']} data-testid="gsc-import-ignored">
            {item.ignored.map((f) => (
              <li key={f.name}>
                <span className={styles['gsc-import__place']}>{f.name}</span>: {f.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

export function GscImports({ auditId }: { auditId: string }) {
  const canImport = useCan('reviewer');
  const canDelete = useCan('admin');
  const imports = useGscImports(auditId);
  const remove = useDeleteGscImport(auditId);
  const list = imports.data ?? [];
  return (
    <div className="stack gsc-imports" data-testid="gsc-imports">
      <h3>Imports</h3>
      {canImport ? <ImportForm auditId={auditId} /> : null}
      {imports.isError ? <Alert title="Could not load the imports">{imports.error.message}</Alert> : null}
      {remove.isError ? <Alert title="The import could not be deleted">{remove.error.message}</Alert> : null}
      {imports.data && list.length === 0 ? (
        <p className="muted small" data-testid="gsc-imports-empty">
          No Search Console imports yet. Once one is imported, the gap per sitemap file appears below.
        </p>
      ) : null}
      {list.length > 0 ? (
        <ol className={spotRuns['spot-runs']} aria-label="Search Console imports">
          {list.map((item) => (
            <li key={item.id} className={spotRuns['spot-run']} data-testid="gsc-import">
              <RunStatusHead>
                <strong className="small">{formatDateTime(item.createdAt)}</strong>
                <StatusBadge status={item.status} testId="gsc-import-status" />
                <span className="muted small">
                  by <strong>{item.createdBy}</strong>
                </span>
                <span className={`muted small ${styles['gsc-import__uploads']}`}>
                  {item.uploads.map((u) => `${u.name} (${formatBytes(u.bytes)})`).join(', ')}
                </span>
                {canDelete && !isActiveStatus(item.status) ? (
                  <ConfirmButton
                    title="Delete this import?"
                    message="Its rows are removed; what the audit knows from Search Console falls back to the imports before it."
                    confirmLabel="Delete import"
                    busy={remove.isPending && remove.variables === item.id}
                    disabled={remove.isPending}
                    testId="gsc-import-delete"
                    onConfirm={() => remove.mutate(item.id)}
                  >
                    Delete
                  </ConfirmButton>
                ) : null}
              </RunStatusHead>
              <ImportBody item={item} />
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
