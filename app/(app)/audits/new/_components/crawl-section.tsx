// The optional crawl export: an uploaded file or a URL, its format and (for generic CSV) the column map.
import { DropZone } from '@/components/ui/drop-zone';
import { Field } from '@/components/ui/field';
import type { CrawlField } from '@/lib/audits/crawl-fields';
import type {
  CrawlFormatChoice,
  CrawlInput,
  NewAuditErrors,
  NewAuditInput,
} from '@/lib/audits/new-audit-input';
import { ColumnMapEditor } from './column-map-editor';
import { FileList } from './file-list';

const CRAWL_FORMATS: { value: CrawlFormatChoice; label: string }[] = [
  { value: 'auto', label: 'Detect automatically' },
  { value: 'jsonl', label: 'JSON Lines (one page per line)' },
  { value: 'screaming-frog', label: 'Screaming Frog CSV export' },
  { value: 'csv', label: 'Other CSV (map the columns)' },
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
        <h2 id="crawl-heading">Crawl export</h2>
        <span className="muted small">Optional — a file or a URL</span>
      </div>
      <div className="card__body form-section">
        <CrawlFields input={input} errors={errors} update={update} />
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
