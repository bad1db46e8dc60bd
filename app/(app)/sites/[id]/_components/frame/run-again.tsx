'use client';
// Run again (reviewers and admins): repeats the site's newest audit, its URL sources fetched afresh and its
// uploads copied; an optional file replaces the crawl export. While a run of the site is going the server
// answers 409 naming it: that sentence is shown as it comes, beside a link to the run.
import Link from 'next/link';
import { useId, useRef, useState } from 'react';
import { Field } from '@/components/ui/field';
import { ApiError } from '@/lib/client/api';
import { useStartSiteRun } from '@/lib/sites/hooks';
import type { SiteDetailDto } from '@/lib/sites/schema';
import styles from './run-again.module.css';

export function RunAgain({ site }: { site: SiteDetailDto }) {
  const [open, setOpen] = useState(false);
  const start = useStartSiteRun(site.id);
  const file = useRef<HTMLInputElement>(null);
  const formId = useId();
  const isConflict = start.error instanceof ApiError && start.error.status === 409;

  const submit = () => {
    const crawl = file.current?.files?.[0];
    if (crawl) {
      const form = new FormData();
      form.set('crawl', crawl);
      start.mutate(form);
    } else {
      start.mutate({});
    }
  };

  return (
    <div className={styles.runAgain}>
      <button
        type="button"
        className="button button--primary"
        aria-expanded={open}
        aria-controls={formId}
        data-testid="run-again"
        onClick={() => setOpen((was) => !was)}
      >
        Run again
      </button>
      {open ? (
        <form
          id={formId}
          className={`card card__body ${styles.form}`}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <p className="small muted">
            Repeats the newest run: sitemap and crawl URLs are fetched again, uploaded files are copied.
          </p>
          <Field
            label="New crawl export (optional)"
            hint="Without one, an uploaded crawl export is read again as it was, and a run of the same crawl confirms no unreached page across two crawls."
          >
            {(control) => (
              <input
                {...control}
                ref={file}
                type="file"
                className="input"
                accept=".csv,.tsv,.jsonl,.jl,.ndjson,.json,.txt,.gz,text/csv,application/json"
              />
            )}
          </Field>
          <button type="submit" className="button button--primary" disabled={start.isPending}>
            {start.isPending ? 'Starting…' : 'Start the run'}
          </button>
          {start.isSuccess ? (
            <p role="status" className="small" data-testid="run-again-started">
              Run started: <Link href={`/audits/${start.data.id}`}>follow it on its audit page</Link>.
            </p>
          ) : null}
          {start.isError ? (
            <div className="alert alert--danger" role="alert" data-testid="run-again-error">
              <strong>
                {isConflict ? 'A run of this site is already going.' : 'Could not start the run.'}
              </strong>{' '}
              {/* The server's 409 names the run by id for API clients; here the link to it says it. */}
              {isConflict && site.activeRun ? null : start.error.message}
              {isConflict && site.activeRun ? (
                <>
                  {' '}
                  <Link href={`/audits/${site.activeRun.id}`}>Open the run in progress</Link>.
                </>
              ) : null}
            </div>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
