// Where the audit's crawl comes from: none, a crawl export (an uploaded file or a URL, its format and, for
// generic CSV, the column map) or the built-in crawler (crawler-fields.tsx). Only the chosen one is sent.
import { DropZone } from '@/components/ui/drop-zone';
import { Field } from '@/components/ui/field';
import type { CrawlField } from '@/lib/audits/crawl-fields';
import type {
  CrawlChoice,
  CrawlFormatChoice,
  CrawlInput,
  NewAuditErrors,
  NewAuditInput,
} from '@/lib/audits/new-audit-input';
import { ColumnMapEditor } from './column-map-editor';
import { CrawlerFields } from './crawler-fields';
import { FileList } from './file-list';

const CRAWL_FORMATS: { value: CrawlFormatChoice; label: string }[] = [
  { value: 'auto', label: 'Detect automatically' },
  { value: 'jsonl', label: 'JSON Lines (one page per line)' },
  { value: 'screaming-frog', label: 'Screaming Frog CSV export' },
  { value: 'csv', label: 'Other CSV (map the columns)' },
];

const CRAWL_CHOICES: { value: CrawlChoice; title: string; description: string }[] = [
  {
    value: 'none',
    title: 'No crawl',
    description:
      'Read the sitemaps only: their files, hygiene and Search Console. Nothing is reconciled; a crawl can be added later.',
  },
  {
    value: 'export',
    title: 'A crawl export',
    description: 'A crawl you already have: Screaming Frog, JSON Lines or any CSV, uploaded or by URL.',
  },
  {
    value: 'crawler',
    title: 'Crawl the site',
    description:
      'We crawl it now, politely (robots.txt, Crawl-delay, a few requests at once), so the review rests on fresh evidence.',
  },
];

export function CrawlSection({
  input,
  errors,
  update,
}: {
  input: NewAuditInput;
  errors: NewAuditErrors;
  update: (patch: Partial<NewAuditInput>) => void;
}) {
  return (
    <section className="card" aria-labelledby="crawl-heading">
      <div className="card__header">
        <h2 id="crawl-heading">Crawl</h2>
        <span className="muted small">What the sitemaps are checked against</span>
      </div>
      <div className="card__body form-section">
        <fieldset className="fieldset" aria-describedby="crawl-choice-hint">
          <legend>Where the crawl comes from</legend>
          <span id="crawl-choice-hint" className="field__hint">
            The review's prune and add lists come from comparing the sitemaps with a crawl.
          </span>
          <div className="choice-group">
            {CRAWL_CHOICES.map((choice) => (
              <label key={choice.value} className="choice">
                <input
                  type="radio"
                  name="crawl-choice"
                  value={choice.value}
                  checked={input.crawlChoice === choice.value}
                  aria-describedby={`crawl-choice-${choice.value}-desc`}
                  data-testid={`crawl-choice-${choice.value}`}
                  onChange={() => update({ crawlChoice: choice.value })}
                />
                <span className="choice__text">
                  <span className="choice__title">{choice.title}</span>
                  <span id={`crawl-choice-${choice.value}-desc`} className="choice__desc">
                    {choice.description}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        {input.crawlChoice === 'export' ? (
          <CrawlFields input={input} errors={errors} update={update} />
        ) : input.crawlChoice === 'crawler' ? (
          <CrawlerFields
            value={input.crawler}
            sitemapUrlsText={input.sitemapUrlsText}
            errors={errors}
            onChange={(patch) => update({ crawler: { ...input.crawler, ...patch } })}
          />
        ) : null}
      </div>
    </section>
  );
}

/** The crawl export's fields alone: the New audit form's, and "Add a crawl export" on an audit's page. */
export function CrawlFields({
  input,
  errors,
  update,
}: {
  input: CrawlInput;
  errors: Pick<NewAuditErrors, 'crawl' | 'columnMap'>;
  update: (patch: Partial<CrawlInput>) => void;
}) {
  return (
    <>
      <DropZone
        id="crawl-file"
        label="Crawl export file"
        hint="JSON Lines, Screaming Frog “Internal: All” CSV, or any CSV with a URL column"
        accept=".csv,.tsv,.jsonl,.jl,.ndjson,.json,.txt,.gz,text/csv,application/json"
        chooseLabel="choose a crawl export"
        invalid={Boolean(errors.crawl) && input.crawlFile !== null}
        describedBy={errors.crawl ? 'crawl-error' : undefined}
        onFiles={(files) => update({ crawlFile: files[0] ?? null })}
      >
        <FileList
          label="Selected crawl export"
          files={input.crawlFile ? [input.crawlFile] : []}
          onRemove={() => update({ crawlFile: null })}
        />
      </DropZone>

      <Field
        label="Crawl export URL"
        id="crawl-url"
        hint="Instead of uploading, we can download the export from this address."
        error={errors.crawl}
        errorId="crawl-error"
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="url"
            inputMode="url"
            spellCheck={false}
            value={input.crawlUrl}
            placeholder="https://files.example.com/crawl/internal_all.csv"
            onChange={(event) => update({ crawlUrl: event.target.value })}
          />
        )}
      </Field>

      <Field label="Crawl format" id="crawl-format">
        {(control) => (
          <select
            {...control}
            className="select"
            value={input.crawlFormat}
            onChange={(event) => update({ crawlFormat: event.target.value as CrawlFormatChoice })}
          >
            {CRAWL_FORMATS.map((format) => (
              <option key={format.value} value={format.value}>
                {format.label}
              </option>
            ))}
          </select>
        )}
      </Field>

      {input.crawlFormat === 'csv' ? (
        <ColumnMapEditor
          file={input.crawlFile}
          value={input.columnMap}
          error={errors.columnMap}
          onChange={(columnMap: Partial<Record<CrawlField, string>>) => update({ columnMap })}
        />
      ) : null}
    </>
  );
}
