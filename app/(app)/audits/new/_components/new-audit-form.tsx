'use client';
// The new-audit form: validates on the client, posts multipart through useCreateAudit, then opens the audit.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { joinIds } from '@/components/ui/aria';
import { DropZone } from '@/components/ui/drop-zone';
import { Field } from '@/components/ui/field';
import { useCreateAudit } from '@/lib/audits/hooks';
import {
  buildAuditFormData,
  defaultCrawlerInput,
  mergeFiles,
  type NewAuditErrors,
  type NewAuditInput,
  validateNewAudit,
} from '@/lib/audits/new-audit-input';
import { formErrors } from '@/lib/client/field-errors';
import { CrawlSection } from './crawl-section';
import { FileList } from './file-list';
import styles from './new-audit-form.module.css';
import { NormalizationSection } from './normalization-section';

/** The API's names of the form's fields, as a sentence names them (the client checks most first). */
const SERVER_FIELDS = {
  name: 'The audit name',
  sitemapUrls: 'Sitemap URLs',
  sitemapUrl: 'Sitemap URLs',
  crawl: 'The crawl export',
  crawlUrl: 'The crawl export URL',
  crawler: 'The crawler settings',
  options: 'The options',
};

/** What the server refused, in sentences (never "sitemapUrls.0: Invalid URL"). */
function serverProblem(error: Error): string {
  const { fields, summary } = formErrors(error, SERVER_FIELDS);
  return [...Object.values(fields), summary].filter(Boolean).join(' ');
}

const FIELD_ORDER: { key: keyof NewAuditErrors; focus: string }[] = [
  { key: 'name', focus: 'audit-name' },
  { key: 'sitemaps', focus: 'sitemap-urls' },
  { key: 'sitemapFiles', focus: 'sitemap-urls' },
  { key: 'crawl', focus: 'crawl-url' },
  { key: 'columnMap', focus: 'column-url' },
  { key: 'crawlerStartUrl', focus: 'crawler-start-url' },
  { key: 'crawlerMaxPages', focus: 'crawler-max-pages' },
  { key: 'crawlerMaxDepth', focus: 'crawler-max-depth' },
  { key: 'crawlerConcurrency', focus: 'crawler-concurrency' },
];

export function NewAuditForm() {
  const router = useRouter();
  const createAudit = useCreateAudit();
  const formRef = useRef<HTMLFormElement>(null);
  const [input, setInput] = useState<NewAuditInput>({
    name: '',
    sitemapUrlsText: '',
    sitemapFiles: [],
    crawlChoice: 'none',
    crawlFile: null,
    crawlUrl: '',
    normalization: 'exact',
    crawlFormat: 'auto',
    columnMap: {},
    crawler: defaultCrawlerInput(),
  });
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const errors: NewAuditErrors = hasTriedSubmit ? validateNewAudit(input) : {};
  const errorCount = Object.keys(errors).length;
  const update = (patch: Partial<NewAuditInput>) => setInput((current) => ({ ...current, ...patch }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setHasTriedSubmit(true);
    const found = validateNewAudit(input);
    const first = FIELD_ORDER.find(({ key }) => found[key]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${first.focus}`)?.focus();
      return;
    }
    createAudit.mutate(buildAuditFormData(input), {
      onSuccess: (created) => router.push(`/audits/${created.id}`),
    });
  };

  const isBusy = createAudit.isPending || createAudit.isSuccess;
  const sitemapsError = errors.sitemaps;

  return (
    <form ref={formRef} className="form" onSubmit={onSubmit} noValidate>
      {errorCount > 0 ? (
        <Alert
          title={`Fix ${errorCount === 1 ? 'this problem' : `these ${errorCount} problems`} to create the audit`}
        >
          <ul className={styles['error-list']}>
            {Object.values(errors).map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <section className="card" aria-labelledby="sitemaps-heading">
        <div className="card__header">
          <h2 id="sitemaps-heading">Sitemaps</h2>
          <span className="muted small">At least one URL or file</span>
        </div>
        <div className="card__body form-section">
          <Field
            label="Audit name"
            id="audit-name"
            hint="Optional. Without one, the audit is named after the first sitemap and the time."
            error={errors.name}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                value={input.name}
                maxLength={200}
                placeholder="e.g. example.com — November release"
                onChange={(event) => update({ name: event.target.value })}
              />
            )}
          </Field>

          <Field
            label="Sitemap URLs"
            id="sitemap-urls"
            hint="One per line. A site root or robots.txt is searched for sitemaps; sitemap indexes are followed to every child sitemap."
            error={sitemapsError}
            errorId="sitemaps-error"
          >
            {(control) => (
              <textarea
                {...control}
                className="textarea"
                value={input.sitemapUrlsText}
                rows={4}
                spellCheck={false}
                placeholder={
                  'https://www.example.com/\nhttps://www.example.com/robots.txt\nhttps://www.example.com/sitemap_index.xml'
                }
                onChange={(event) => update({ sitemapUrlsText: event.target.value })}
              />
            )}
          </Field>

          <DropZone
            id="sitemap-files"
            label="Sitemap files"
            hint=".xml, .xml.gz, .gz or .txt — as many as you like"
            accept=".xml,.gz,.txt,.rss,.atom,application/xml,text/xml,text/plain,application/gzip"
            multiple
            chooseLabel="choose sitemap files"
            invalid={Boolean(errors.sitemapFiles)}
            describedBy={joinIds(
              errors.sitemapFiles && 'sitemap-files-error',
              sitemapsError && 'sitemaps-error',
            )}
            onFiles={(files) =>
              setInput((current) => ({ ...current, sitemapFiles: mergeFiles(current.sitemapFiles, files) }))
            }
          >
            <FileList
              label="Selected sitemaps"
              files={input.sitemapFiles}
              onRemove={(index) =>
                setInput((current) => ({
                  ...current,
                  sitemapFiles: current.sitemapFiles.filter((_, i) => i !== index),
                }))
              }
            />
            {errors.sitemapFiles ? (
              <span id="sitemap-files-error" className="field__error">
                {errors.sitemapFiles}
              </span>
            ) : null}
          </DropZone>
        </div>
      </section>

      <CrawlSection input={input} errors={errors} update={update} />

      <NormalizationSection
        value={input.normalization}
        onChange={(normalization) => update({ normalization })}
      />

      {/* Next to the submit button, where the eye is after clicking it. */}
      {createAudit.isError ? (
        <Alert title="The audit could not be created">{serverProblem(createAudit.error)}</Alert>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Creating audit…' : 'Create audit'}
        </button>
        <Link href="/" className="button">
          Cancel
        </Link>
      </div>
    </form>
  );
}
