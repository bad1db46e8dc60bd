'use client';
// Field → column header pairs for a generic CSV crawl export. With an uploaded file, its header row is
// read in the browser to offer the real column names and pre-fill the fields it recognises.
import { useEffect, useState } from 'react';
import { joinIds } from '@/components/ui/aria';
import { CRAWL_FIELD_LABELS, type CrawlField } from '@/lib/audits/crawl-fields';
import { decodeHead, parseCsvHeader, suggestColumnMap } from '@/lib/audits/csv-header';
import { CRAWL_FIELDS } from '@/lib/audits/schema';
import styles from './column-map-editor.module.css';

type ColumnMap = Partial<Record<CrawlField, string>>;

const HEAD_BYTES = 64 * 1024;

const PLACEHOLDERS: Partial<Record<CrawlField, string>> = {
  url: 'e.g. Address',
  status: 'e.g. Status Code',
  canonical: 'e.g. Canonical Link Element 1',
  indexable: 'e.g. Indexability',
  crawledAt: 'e.g. Crawl Timestamp',
  redirectUrl: 'e.g. Redirect URL',
};

function useCsvHeaders(file: File | null): { headers: string[]; fileName: string | null } {
  const [state, setState] = useState<{ headers: string[]; fileName: string | null }>({
    headers: [],
    fileName: null,
  });
  useEffect(() => {
    if (!file) {
      setState({ headers: [], fileName: null });
      return;
    }
    let isCurrent = true;
    file
      .slice(0, HEAD_BYTES)
      .arrayBuffer()
      .then((buffer) => {
        if (isCurrent)
          setState({ headers: parseCsvHeader(decodeHead(new Uint8Array(buffer))), fileName: file.name });
      })
      .catch(() => {
        if (isCurrent) setState({ headers: [], fileName: file.name });
      });
    return () => {
      isCurrent = false;
    };
  }, [file]);
  return state;
}

export function ColumnMapEditor({
  value,
  onChange,
  file,
  error,
}: {
  value: ColumnMap;
  onChange: (next: ColumnMap) => void;
  file: File | null;
  error?: string;
}) {
  const { headers, fileName } = useCsvHeaders(file);
  const known = new Set(headers);

  // Pre-fill only fields the user has left empty, once per file.
  const [filledFor, setFilledFor] = useState<string | null>(null);
  useEffect(() => {
    if (!fileName || headers.length === 0 || filledFor === fileName) return;
    setFilledFor(fileName);
    const suggested = suggestColumnMap(headers);
    const next: ColumnMap = { ...value };
    let changed = false;
    for (const field of CRAWL_FIELDS) {
      if (!next[field]?.trim() && suggested[field]) {
        next[field] = suggested[field];
        changed = true;
      }
    }
    if (changed) onChange(next);
  }, [fileName, headers, filledFor, value, onChange]);

  return (
    <fieldset className="fieldset" aria-describedby="column-map-hint">
      <legend>Column map</legend>
      <p id="column-map-hint" className="field__hint">
        Type the header of the column in your CSV that holds each field. Only the page URL is required; leave
        the others empty if the export does not have them.
        {headers.length > 0
          ? ` Found ${headers.length} columns in ${fileName}; recognised ones are filled in.`
          : ''}
      </p>
      {headers.length > 0 ? (
        <datalist id="crawl-headers">
          {headers.map((header) => (
            <option key={header} value={header} />
          ))}
        </datalist>
      ) : null}
      <div className={styles.map}>
        {CRAWL_FIELDS.map((field) => {
          const id = `column-${field}`;
          const isUrl = field === 'url';
          const current = value[field]?.trim() ?? '';
          const isUnknown = headers.length > 0 && current !== '' && !known.has(current);
          const hintId = `${id}-unknown`;
          const errorId = isUrl && error ? 'column-map-error' : undefined;
          return (
            <div className={`field ${styles.field}`} key={field}>
              <label htmlFor={id} className="field__label">
                {CRAWL_FIELD_LABELS[field]} column{isUrl ? ' *' : ''}
              </label>
              <div className={styles.input}>
                <input
                  id={id}
                  className="input"
                  value={value[field] ?? ''}
                  placeholder={PLACEHOLDERS[field]}
                  list={headers.length > 0 ? 'crawl-headers' : undefined}
                  autoComplete="off"
                  aria-required={isUrl || undefined}
                  aria-invalid={isUrl && error ? true : undefined}
                  aria-describedby={joinIds(errorId, isUnknown && hintId)}
                  onChange={(event) => onChange({ ...value, [field]: event.target.value })}
                />
                {isUnknown ? (
                  <span id={hintId} className={`field__hint ${styles.warning}`}>
                    Not a column in {fileName}
                  </span>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
      {error ? (
        <p id="column-map-error" className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
