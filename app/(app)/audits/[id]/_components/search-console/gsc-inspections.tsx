'use client';
// URL Inspection in the Search Console section: admins set, replace or remove the audit's
// service-account key (only its property and email are shown after); reviewers start a run over a sample,
// follow its progress (or its wait for the next day's quota) and cancel it; everyone sees the runs and a
// run's inspections. Data through lib/gsc/hooks-inspections.ts.
import { type FormEvent, useId, useState } from 'react';
import spotItems from '@/app/(app)/audits/[id]/_components/spot-checks/spot-items.module.css';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import pagerStyles from '@/components/ui/cursor-pager.module.css';
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import { RunStatus, RunStatusHead } from '@/components/ui/run-status';
import { isActiveStatus } from '@/lib/audits/labels';
import { formatCount, formatDateTime } from '@/lib/core/format';
import {
  useCancelGscInspection,
  useGscCredentials,
  useGscInspectionRun,
  useGscInspectionRuns,
  useRemoveGscCredentials,
  useSetGscCredentials,
  useStartGscInspection,
} from '@/lib/gsc/hooks-inspections';
import { inspectionVerdictWords } from '@/lib/gsc/inspection-labels';
import type { GscInspectionItemDto, GscInspectionRunDto } from '@/lib/gsc/inspection-schema';
import { StatusBadge } from '../../../_components/status-badge';
import { RunPeople } from '../spot-checks/spot-checks-runs';
import spotRuns from '../spot-checks/spot-runs.module.css';
import styles from './search-console.module.css';

/** A Search Console property kept whole: "sc-domain:" split at its hyphen reads as two words. */
function PropertyName({ name }: { name: string }) {
  return (
    <span className={`mono ${styles['gsc-property-name']}`} title={name}>
      {name}
    </span>
  );
}

function KeyForm({ auditId, onDone }: { auditId: string; onDone?: () => void }) {
  const id = useId();
  const save = useSetGscCredentials(auditId);
  const [property, setProperty] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || property.trim() === '') return;
    setReadError(null);
    let key: string;
    try {
      key = await file.text();
    } catch {
      setReadError('The file could not be read.');
      return;
    }
    save.mutate({ property: property.trim(), key }, { onSuccess: () => onDone?.() });
  };
  return (
    <form
      className={spotRuns['spot-form']}
      onSubmit={submit}
      aria-label="Search Console key"
      data-testid="gsc-key-form"
    >
      <div className={spotRuns['spot-form__fields']}>
        <div className="field">
          <label htmlFor={`${id}-property`} className="field__label">
            Property
          </label>
          <input
            id={`${id}-property`}
            className="input"
            value={property}
            placeholder="sc-domain:example.com"
            aria-describedby={`${id}-property-hint`}
            onChange={(e) => setProperty(e.target.value)}
          />
          <span id={`${id}-property-hint`} className="field__hint">
            As Search Console names it: <PropertyName name="sc-domain:example.com" /> or{' '}
            <PropertyName name="https://www.example.com/" />
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-key`} className="field__label">
            Service-account key (JSON)
          </label>
          <input
            id={`${id}-key`}
            type="file"
            accept="application/json,.json"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <span className="field__hint">The account must be a user of the property in Search Console.</span>
        </div>
      </div>
      {save.error || readError ? (
        <Alert title="The key was not saved">{readError ?? save.error?.message}</Alert>
      ) : null}
      <div>
        <button
          type="submit"
          className="button button--primary"
          disabled={save.isPending || !file || property.trim() === ''}
        >
          {save.isPending ? 'Saving…' : 'Save key'}
        </button>
      </div>
    </form>
  );
}

function KeyPanel({ auditId }: { auditId: string }) {
  const isAdmin = useCan('admin');
  const credentials = useGscCredentials(auditId);
  const remove = useRemoveGscCredentials(auditId);
  const [isReplacing, setReplacing] = useState(false);
  if (credentials.isError) return <Alert title="Could not load the key">{credentials.error.message}</Alert>;
  if (credentials.isPending) return <p className="muted">Loading…</p>;
  const key = credentials.data;
  if (!key) {
    return isAdmin ? (
      <KeyForm auditId={auditId} />
    ) : (
      <p className="muted" data-testid="gsc-key-none">
        No service-account key yet: an admin adds one to inspect URLs.
      </p>
    );
  }
  return (
    <div className="stack">
      <p data-testid="gsc-key">
        Inspecting{' '}
        <strong>
          <PropertyName name={key.property} />
        </strong>{' '}
        as <span className="mono">{key.clientEmail}</span>
        <span className="muted small">
          {' '}
          · set by {key.createdBy}, {formatDateTime(key.createdAt)}
        </span>
      </p>
      {isAdmin ? (
        <div className={pagerStyles['spot-pager']}>
          <button type="button" className="button button--small" onClick={() => setReplacing((v) => !v)}>
            {isReplacing ? 'Keep this key' : 'Replace key'}
          </button>
          <ConfirmButton
            title="Remove the Search Console key?"
            message="Runs that use it stop; inspections already made stay. To inspect again, an admin adds a key."
            confirmLabel="Remove key"
            dismissLabel="Keep it"
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          >
            Remove key
          </ConfirmButton>
        </div>
      ) : null}
      {isReplacing ? <KeyForm auditId={auditId} onDone={() => setReplacing(false)} /> : null}
    </div>
  );
}

function StartForm({ auditId, onStarted }: { auditId: string; onStarted: (runId: string) => void }) {
  const id = useId();
  const start = useStartGscInspection(auditId);
  const [sample, setSample] = useState('100');
  const size = Number(sample);
  const isValid = Number.isInteger(size) && size >= 1;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isValid) start.mutate({ sample: size }, { onSuccess: ({ runId }) => onStarted(runId) });
  };
  return (
    <form className={spotRuns['spot-form']} onSubmit={submit} noValidate aria-label="Start a URL inspection">
      <div className={spotRuns['spot-form__fields']}>
        <div className="field">
          <label htmlFor={`${id}-sample`} className="field__label">
            URLs to inspect
          </label>
          <input
            id={`${id}-sample`}
            className="input"
            type="number"
            inputMode="numeric"
            min={1}
            value={sample}
            aria-invalid={!isValid}
            aria-describedby={`${id}-sample-hint`}
            onChange={(e) => setSample(e.target.value)}
          />
          <span id={`${id}-sample-hint`} className={isValid ? 'field__hint' : 'field__error'}>
            {isValid
              ? 'Spread over the sitemap files; Google allows about 2,000 a day per property.'
              : 'A whole number from 1'}
          </span>
        </div>
      </div>
      {start.error ? <Alert title="The inspection was not started">{start.error.message}</Alert> : null}
      <div>
        <button type="submit" className="button button--primary" disabled={start.isPending || !isValid}>
          {start.isPending ? 'Starting…' : 'Inspect URLs'}
        </button>
      </div>
    </form>
  );
}

function RunProgress({ run }: { run: GscInspectionRunDto }) {
  if (run.phase === 'waiting_for_quota') {
    const stop = run.quotaStop;
    // Google's own quota answer during this wait (not an older one the run went on after).
    const google = stop !== null && run.resumeAt !== null && Date.parse(run.resumeAt) > Date.parse(stop.at);
    return (
      <div className="stack" data-testid="gsc-run-waiting">
        <p className="small">
          {google && stop.limit === 'minute'
            ? "Waiting for the next minute's quota"
            : "Waiting for the next day's quota"}{' '}
          until {formatDateTime(run.resumeAt)} — {formatCount(run.progress.done)} of{' '}
          {formatCount(run.progress.total)} inspected so far, kept.
        </p>
        {google ? (
          <p className="small muted" data-testid="gsc-run-quota-stop">
            Google answered {stop.status} {stop.code} at {formatDateTime(stop.at)} (“{stop.message}”): the run
            stopped calling at once and goes on by itself when the quota resets.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <RunStatus
      status={run.status}
      phase={run.phaseLabel}
      progress={run.progress}
      barLabel="URL inspection progress"
      unknownTotal="empty"
      testId="gsc-run-progress"
    />
  );
}

function Runs({
  auditId,
  runs,
  selectedId,
  onSelect,
}: {
  auditId: string;
  runs: GscInspectionRunDto[];
  selectedId: string | null;
  onSelect: (runId: string) => void;
}) {
  const canReview = useCan('reviewer');
  const cancel = useCancelGscInspection(auditId);
  return (
    <ol className={spotRuns['spot-runs']} aria-label="URL inspection runs">
      {runs.map((run) => (
        <li
          key={run.id}
          className={spotRuns['spot-run']}
          data-selected={run.id === selectedId}
          data-testid="gsc-run"
        >
          <RunStatusHead>
            <button
              type="button"
              className="button button--link spot-run__select"
              aria-pressed={run.id === selectedId}
              onClick={() => onSelect(run.id)}
            >
              {formatDateTime(run.createdAt)}
            </button>
            <StatusBadge status={run.status} testId="gsc-run-status" />
            <RunPeople run={run} />
          </RunStatusHead>
          <p className={`small muted ${spotRuns['spot-run__request']}`}>
            {formatCount(run.request.sample)} URLs of <PropertyName name={run.property} />, seed{' '}
            {run.request.seed}
            {run.summary
              ? ` · ${formatCount(run.summary.indexed)} indexed, ${formatCount(run.summary.notIndexed)} not indexed${run.summary.errors ? `, ${formatCount(run.summary.errors)} errors` : ''}`
              : ''}
          </p>
          {isActiveStatus(run.status) ? <RunProgress run={run} /> : null}
          {run.errorMessage ? <p className="small field__error">{run.errorMessage}</p> : null}
          {isActiveStatus(run.status) && canReview ? (
            // In a div: a flex column would stretch the button across the card.
            <div>
              <ConfirmButton
                title="Cancel this URL inspection?"
                message="It stops where it is now; the URLs it inspected so far stay."
                confirmLabel="Cancel inspection"
                dismissLabel="Keep inspecting"
                busy={cancel.isPending && cancel.variables === run.id}
                testId="gsc-run-cancel"
                onConfirm={() => cancel.mutate(run.id)}
              >
                Cancel
              </ConfirmButton>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function stateLabel(item: GscInspectionItemDto): string {
  if (item.error) return `Error: ${item.error.message}`;
  if (item.state === 'indexed') return 'Indexed';
  return 'Not indexed';
}

/** Google's own verdict beside ours, in words; the raw code stays in the tooltip for whoever knows the API. */
function VerdictWords({ verdict }: { verdict: string | null }) {
  const words = inspectionVerdictWords(verdict);
  if (!words) return null;
  return (
    <span className="muted small" title={`URL Inspection verdict ${verdict}`} data-testid="gsc-item-verdict">
      {' '}
      · Google: {words}
    </span>
  );
}

function Canonicals({ item }: { item: GscInspectionItemDto }) {
  if (!item.googleCanonical && !item.userCanonical) return '—';
  if (item.googleCanonical === item.userCanonical)
    return (
      <span className={`mono ${spotItems['spot-url']}`}>
        <BreakableUrl url={item.googleCanonical ?? ''} />
      </span>
    );
  return (
    <span data-testid="gsc-item-canonical-differs">
      <span className="muted small">Google: </span>
      <span className={`mono ${spotItems['spot-url']}`}>
        {item.googleCanonical ? <BreakableUrl url={item.googleCanonical} /> : '—'}
      </span>
      <br />
      <span className="muted small">Page: </span>
      <span className={`mono ${spotItems['spot-url']}`}>
        {item.userCanonical ? <BreakableUrl url={item.userCanonical} /> : '—'}
      </span>
    </span>
  );
}

const ITEM_COLUMNS: DataColumn<GscInspectionItemDto>[] = [
  {
    id: 'url',
    header: 'URL',
    cellClassName: spotItems['spot-items__url'],
    cell: (item) => (
      <span className={`mono ${spotItems['spot-url']}`}>
        <BreakableUrl url={item.url} />
      </span>
    ),
  },
  {
    id: 'verdict',
    header: 'Verdict',
    cell: (item) => (
      <>
        <strong>{stateLabel(item)}</strong>
        <VerdictWords verdict={item.verdict} />
      </>
    ),
  },
  { id: 'coverage', header: 'Coverage', cell: (item) => item.coverageState ?? '—' },
  {
    id: 'canonical',
    header: 'Canonical (Google / page)',
    label: 'Canonical',
    cell: (item) => <Canonicals item={item} />,
  },
  {
    id: 'crawl',
    header: 'Last crawl',
    cell: (item) => (item.lastCrawlTime ? formatDateTime(item.lastCrawlTime) : '—'),
  },
];

function Items({ items }: { items: GscInspectionItemDto[] }) {
  if (items.length === 0) return <p className="muted">No URL inspected yet.</p>;
  return (
    <DataTable
      columns={ITEM_COLUMNS}
      rows={items}
      rowKey={(item) => item.position}
      rowProps={() => ({ 'data-testid': 'gsc-item' })}
      className={spotItems['spot-items']}
      wrapClassName={spotItems['spot-items-wrap']}
      testId="gsc-items"
    />
  );
}

function RunItems({ auditId, runId }: { auditId: string; runId: string }) {
  const pages = useCursorStack();
  const run = useGscInspectionRun(auditId, runId, pages.cursor);
  if (run.isError) return <Alert title="Could not load this inspection">{run.error.message}</Alert>;
  if (!run.data) return <p className="muted">Loading the inspections…</p>;
  const { items, nextCursor } = run.data;
  return (
    <div className="stack">
      <h4>Inspected URLs</h4>
      <Items items={items} />
      {pages.page > 1 || nextCursor ? <CursorPager stack={pages} nextCursor={nextCursor} /> : null}
    </div>
  );
}

export function GscInspections({ auditId }: { auditId: string }) {
  const canReview = useCan('reviewer');
  const credentials = useGscCredentials(auditId);
  const runs = useGscInspectionRuns(auditId);
  const [selected, setSelected] = useState<string | null>(null);
  const list = runs.data ?? [];
  const shownId = selected ?? list[0]?.id ?? null;
  return (
    <section className="stack" aria-labelledby="gsc-inspections-heading" data-testid="gsc-inspections">
      <div>
        <h3 id="gsc-inspections-heading">URL Inspection</h3>
        <p className="muted small">
          Ask Google about a sample of the declared URLs, one by one, with a service account of the property.
          A run that spends the day's quota, or gets Google's quota answer, stops calling and goes on by
          itself once the quota resets.
        </p>
      </div>
      <KeyPanel auditId={auditId} />
      {canReview && credentials.data ? <StartForm auditId={auditId} onStarted={setSelected} /> : null}
      {runs.isError ? <Alert title="Could not load the inspections">{runs.error.message}</Alert> : null}
      {list.length > 0 ? (
        <>
          <Runs auditId={auditId} runs={list} selectedId={shownId} onSelect={setSelected} />
          {shownId ? <RunItems key={shownId} auditId={auditId} runId={shownId} /> : null}
        </>
      ) : null}
    </section>
  );
}
