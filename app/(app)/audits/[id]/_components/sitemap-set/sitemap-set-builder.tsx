'use client';
// "Build corrected sitemap": the layout of the corrected set (the input's files, changed only where a
// decision says so, or regrouped by section with its gzip and URLs-per-file options), the base URL, the
// before/after summary as the approved decisions leave it (per file, with what would break Search Console
// history), and a download link to the zip. The link is a plain anchor: the server streams the zip as an
// attachment while it writes it. Regrouped, an empty base URL is the site URL the Hygiene tab judged the
// files against (given with "Re-check with this site URL"); kept, each file stays where its index lists it.
import { useId, useState } from 'react';
import { QueryStatus } from '@/components/ui/query-status';
import { formatCount } from '@/lib/core/format';
import { reasonLabel } from '@/lib/findings/format';
import { type SetOptions, sitemapSetZipHref, useSitemapSetSummary } from '@/lib/sitemap-set/hooks';
import {
  DEFAULT_MAX_URLS,
  MAX_URLS_LIMIT,
  type SetFileChange,
  type SetLayout,
  type SitemapSetSummaryDto,
} from '@/lib/sitemap-set/schema';
import styles from './sitemap-set.module.css';
import { changeText, isBaseValid, urlsText } from './sitemap-set-words';

const SECTIONS_SHOWN = 10;
/** Changed files listed by name; the rest are counted (all are in the zip's summary.json). */
const FILES_SHOWN = 100;

const filesText = (n: number) => `${formatCount(n)} ${n === 1 ? 'file' : 'files'}`;

/** The before/after figures of either layout, one row a figure. */
function BeforeAfter({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <table className={styles['sitemap-set__summary']}>
      <caption className="visually-hidden">Before and after</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="num">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const STATUS_LABELS: Record<SetFileChange['status'], string> = {
  unchanged: 'Unchanged',
  changed: 'Changed',
  dropped: 'Dropped',
  new: 'New file',
  kept_as_is: 'Not rewritten',
};

function InputSummary({ summary }: { summary: SitemapSetSummaryDto }) {
  const totalRemoved = Object.values(summary.removed).reduce((n, count) => n + count, 0);
  const rows: [string, string][] = [
    ['Declared entries', `${formatCount(summary.before.entries)} in ${filesText(summary.before.files)}`],
    ['Removed (approved prune rows)', formatCount(totalRemoved)],
    ['Replaced by the crawled URL', formatCount(summary.replaced)],
    ['Added (approved add rows)', formatCount(summary.added)],
    ['URLs in the corrected set', `${formatCount(summary.after.urls)} in ${filesText(summary.after.files)}`],
  ];
  const changed = summary.files.filter((f) => f.status !== 'unchanged');
  const unchanged = summary.files.length - changed.length;
  return (
    <div className="stack sitemap-set__result" data-testid="sitemap-set-summary">
      <BeforeAfter rows={rows} />
      {summary.warnings.length > 0 && (
        <div className="alert alert--warning" role="alert" data-testid="sitemap-set-warnings">
          {summary.warnings.map((w) => (
            <p key={w.code}>{w.message}</p>
          ))}
        </div>
      )}
      <div className="stack" data-testid="sitemap-set-files">
        <h3 className={styles['sitemap-set__files-title']}>Changes by file</h3>
        {changed.length === 0 ? (
          <p className="small">No file changes: every file is written back as it was read.</p>
        ) : (
          <ul className={styles['sitemap-set__files']}>
            {changed.slice(0, FILES_SHOWN).map((file) => (
              <li
                key={`${file.name} ${file.source ?? ''}`}
                className={styles['sitemap-set__file']}
                data-testid="sitemap-set-file"
              >
                <span className={`mono ${styles['sitemap-set__file-name']}`}>{file.name}</span>{' '}
                <span
                  className={`${styles['sitemap-set__status']} ${styles[`sitemap-set__status--${file.status}`] ?? ''}`}
                >
                  {STATUS_LABELS[file.status]}
                </span>
                <span className={`small ${styles['sitemap-set__file-change']}`}>{changeText(file)}</span>
              </li>
            ))}
          </ul>
        )}
        {changed.length > FILES_SHOWN && (
          <p className="small muted">
            And {formatCount(changed.length - FILES_SHOWN)} more changed files (all are listed in the zip’s
            summary.json).
          </p>
        )}
        {unchanged > 0 && changed.length > 0 && (
          <p className="small muted">
            {formatCount(unchanged)} other {unchanged === 1 ? 'file is' : 'files are'} written back unchanged.
          </p>
        )}
      </div>
    </div>
  );
}

function Summary({ summary }: { summary: SitemapSetSummaryDto }) {
  if (summary.layout === 'input') return <InputSummary summary={summary} />;
  // Entries whose loc is not a URL are left out whatever was decided: not counted as approved prune rows.
  const removed = Object.entries(summary.removed).filter(([reason]) => reason !== 'not_a_url');
  const totalRemoved = removed.reduce((n, [, count]) => n + count, 0);
  const notUrls = summary.removed.not_a_url ?? 0;
  const rows: [string, string][] = [
    ['Declared entries', `${formatCount(summary.before.entries)} in ${filesText(summary.before.files)}`],
    ['Removed (approved prune rows)', formatCount(totalRemoved)],
    ...(notUrls > 0 ? [['Left out (not a URL)', formatCount(notUrls)] as [string, string]] : []),
    ['Replaced by the crawled URL', formatCount(summary.replaced)],
    ['Added (approved add rows)', formatCount(summary.added)],
    ['Duplicates merged', formatCount(summary.duplicates)],
    [
      'URLs in the corrected set',
      `${formatCount(summary.after.urls)} in ${filesText(summary.after.files)} + the index`,
    ],
  ];
  const sections = summary.after.sections.slice(0, SECTIONS_SHOWN);
  const more = summary.after.sections.length - sections.length + summary.after.moreSections;
  return (
    <div className="stack sitemap-set__result" data-testid="sitemap-set-summary">
      <BeforeAfter rows={rows} />
      {/* Right under the figures: why the number of files changes (one per section, not one per input). */}
      {sections.length > 0 && (
        <p className="small" data-testid="sitemap-set-sections">
          The corrected set is grouped by section (a URL's first path segment), at most{' '}
          {urlsText(summary.options.maxUrls)} a file:{' '}
          {sections.map((s) => `${s.name}-sitemap (${urlsText(s.urls)}, ${filesText(s.files)})`).join(', ')}
          {more > 0 ? `, and ${formatCount(more)} more sections` : ''}; sitemap-index.xml lists them at{' '}
          <span className="mono">{summary.options.base}</span>.
        </p>
      )}
      {removed.length > 0 && (
        <p className="small">
          Removed by reason:{' '}
          {removed.map(([reason, n]) => `${reasonLabel(reason)} (${formatCount(n)})`).join(', ')}.
        </p>
      )}
    </div>
  );
}

export function SitemapSetBuilder({
  auditId,
  siteUrl,
}: {
  auditId: string;
  /** The site URL the lint judged the files against: the base URL until another is typed. */
  siteUrl: string | null;
}) {
  const id = useId();
  const [layout, setLayout] = useState<SetLayout>('input');
  const [gzip, setGzip] = useState(true);
  const [maxText, setMaxText] = useState(String(DEFAULT_MAX_URLS));
  const [baseText, setBaseText] = useState('');
  const maxUrls = Number(maxText);
  const isMaxValid = Number.isInteger(maxUrls) && maxUrls >= 1 && maxUrls <= MAX_URLS_LIMIT;
  const base = baseText.trim();
  const isSections = layout === 'sections';
  const siteBase = siteUrl !== null && siteUrl !== '' && isBaseValid(siteUrl) ? siteUrl : '';
  // Kept files stay where their index lists them unless a base is typed.
  const defaultBase = isSections ? siteBase : '';
  const isValid = (isMaxValid || !isSections) && isBaseValid(base);
  const options: SetOptions = {
    layout,
    gzip,
    maxUrls: isMaxValid ? maxUrls : DEFAULT_MAX_URLS,
    base: isBaseValid(base) ? base || defaultBase : '',
  };
  const summary = useSitemapSetSummary(auditId, options);
  return (
    <section
      className="card card__body stack"
      aria-labelledby={`${id}-title`}
      data-testid="sitemap-set-builder"
    >
      <h2 id={`${id}-title`}>Build corrected sitemap</h2>
      <p className="muted small">
        The declared sitemap with the approved prune rows removed, approved url variants replaced by their
        crawled URL and the approved add rows added. Pending and rejected rows change nothing.
      </p>
      <fieldset className={styles['sitemap-set__layout']}>
        <legend className="field__label">Layout</legend>
        <label className={styles['sitemap-set__check']}>
          <input
            type="radio"
            name={`${id}-layout`}
            checked={!isSections}
            onChange={() => setLayout('input')}
          />
          Keep my files: same names, index, order and extensions (recommended)
        </label>
        <label className={styles['sitemap-set__check']}>
          <input
            type="radio"
            name={`${id}-layout`}
            checked={isSections}
            onChange={() => setLayout('sections')}
          />
          Regroup by section: new files, one per section
        </label>
      </fieldset>
      <div
        className={
          isSections
            ? styles['sitemap-set__fields']
            : `${styles['sitemap-set__fields']} ${styles['sitemap-set__fields--one']}`
        }
      >
        {isSections && (
          <div className="field">
            <label htmlFor={`${id}-max`} className="field__label">
              URLs per file
            </label>
            <input
              id={`${id}-max`}
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_URLS_LIMIT}
              value={maxText}
              aria-invalid={!isMaxValid}
              aria-describedby={`${id}-max-hint`}
              onChange={(e) => setMaxText(e.target.value)}
            />
            <span id={`${id}-max-hint`} className={isMaxValid ? 'field__hint' : 'field__error'}>
              {isMaxValid ? 'At most 50,000 (the protocol limit).' : 'Give a whole number from 1 to 50,000.'}
            </span>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-base`} className="field__label">
            Base URL (optional)
          </label>
          <input
            id={`${id}-base`}
            className="input"
            type="url"
            inputMode="url"
            placeholder={defaultBase || (summary.data?.options.base ?? 'https://www.example.com/')}
            value={baseText}
            aria-invalid={!isBaseValid(base)}
            aria-describedby={`${id}-base-hint`}
            onChange={(e) => setBaseText(e.target.value)}
          />
          <span id={`${id}-base-hint`} className={isBaseValid(base) ? 'field__hint' : 'field__error'}>
            {isBaseValid(base)
              ? isSections
                ? `Where the files will be served; the index lists them there. Empty: ${defaultBase ? 'the site URL the files were judged against' : 'the site’s origin'}.`
                : 'Where the files will be served; the index lists them there. Empty: where the index lists them now.'
              : 'Give an absolute http(s) URL, without a query.'}
          </span>
        </div>
      </div>
      {isSections && (
        <label className={styles['sitemap-set__check']}>
          <input type="checkbox" checked={gzip} onChange={(e) => setGzip(e.target.checked)} />
          Gzip the sitemap files (.xml.gz)
        </label>
      )}
      <QueryStatus
        query={summary}
        loading="Counting the corrected set…"
        failed="The summary could not be counted"
      >
        {(data) => <Summary summary={data} />}
      </QueryStatus>
      <div>
        {isValid ? (
          <a
            className="button button--primary"
            href={sitemapSetZipHref(auditId, options)}
            download
            data-testid="sitemap-set-download"
          >
            Download the sitemap set (.zip)
          </a>
        ) : (
          <p className="field__error" role="status">
            Fix the options above to download the set.
          </p>
        )}
      </div>
    </section>
  );
}
