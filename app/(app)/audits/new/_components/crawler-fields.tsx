// The built-in crawler's settings on the New audit form: what to crawl (follow links from a start URL, or
// exactly the sitemaps' URLs), how far, how hard on the site, and whether to render. Defaults and limits
// are the API's (lib/audits/crawler-schema.ts); the checks are lib/audits/new-audit-input.ts.
import { Field, type FieldControl } from '@/components/ui/field';
import { CRAWLER_LIMITS } from '@/lib/audits/crawler-schema';
import { type CrawlerInput, defaultStartUrl, type NewAuditErrors } from '@/lib/audits/new-audit-input';
import type { CrawlMode } from '@/lib/crawler/types';
import styles from './crawler-fields.module.css';

const MODES: { value: CrawlMode; title: string; description: string }[] = [
  {
    value: 'site',
    title: 'Follow links from a start URL',
    description:
      'Like a spider crawl: finds pages the sitemaps miss and sitemap pages nothing links to. Links to other hosts are counted, never fetched.',
  },
  {
    value: 'list',
    title: 'Fetch exactly the sitemaps’ URLs',
    description:
      'Like a list-mode crawl: every declared URL gets a live status. No links are followed, so pages missing from the sitemaps are not found.',
  },
];

const CONCURRENCY = Array.from({ length: CRAWLER_LIMITS.concurrencyPerHost }, (_, index) => index + 1);

/** A limit's number field; its text is kept as typed, and checked (new-audit-input.ts) before sending. */
function WholeNumber({
  control,
  min,
  max,
  value,
  onChange,
}: {
  control: FieldControl;
  min: number;
  max: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      {...control}
      className="input"
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function CrawlerFields({
  value,
  sitemapUrlsText,
  errors,
  onChange,
}: {
  value: CrawlerInput;
  /** The sitemap URLs as typed: the start URL's placeholder is their first site's root. */
  sitemapUrlsText: string;
  errors: NewAuditErrors;
  onChange: (patch: Partial<CrawlerInput>) => void;
}) {
  const isSite = value.mode === 'site';
  const siteRoot = defaultStartUrl(sitemapUrlsText);
  return (
    <div className="form-section" data-testid="crawler-fields">
      <fieldset className="fieldset">
        <legend>What to crawl</legend>
        <div className="choice-group">
          {MODES.map((mode) => (
            <label key={mode.value} className="choice">
              <input
                type="radio"
                name="crawler-mode"
                value={mode.value}
                checked={value.mode === mode.value}
                aria-describedby={`crawler-mode-${mode.value}-desc`}
                onChange={() => onChange({ mode: mode.value })}
              />
              <span className="choice__text">
                <span className="choice__title">{mode.title}</span>
                <span id={`crawler-mode-${mode.value}-desc`} className="choice__desc">
                  {mode.description}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {isSite ? (
        <Field
          label="Start URL"
          id="crawler-start-url"
          hint={
            siteRoot
              ? `Optional. Empty: ${siteRoot}, the root of the first sitemap URL's site.`
              : "Empty: the root of the first sitemap URL's site. With uploaded sitemaps only, enter one."
          }
          error={errors.crawlerStartUrl}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              type="url"
              inputMode="url"
              spellCheck={false}
              value={value.startUrl}
              placeholder={siteRoot ?? 'https://www.example.com/'}
              onChange={(event) => onChange({ startUrl: event.target.value })}
            />
          )}
        </Field>
      ) : null}

      <div className={styles.limits}>
        <Field
          label="Max pages"
          id="crawler-max-pages"
          hint="A crawl stopped by this limit prunes nothing it did not reach: those URLs are held."
          error={errors.crawlerMaxPages}
        >
          {(control) => (
            <WholeNumber
              control={control}
              min={1}
              max={CRAWLER_LIMITS.maxPages}
              value={value.maxPages}
              onChange={(maxPages) => onChange({ maxPages })}
            />
          )}
        </Field>
        {isSite ? (
          <Field
            label="Max depth"
            id="crawler-max-depth"
            hint="Clicks from the start URL."
            error={errors.crawlerMaxDepth}
          >
            {(control) => (
              <WholeNumber
                control={control}
                min={0}
                max={CRAWLER_LIMITS.maxDepth}
                value={value.maxDepth}
                onChange={(maxDepth) => onChange({ maxDepth })}
              />
            )}
          </Field>
        ) : null}
        <Field
          label="Requests at once per host"
          id="crawler-concurrency"
          hint="More is faster and heavier on the site; a robots.txt Crawl-delay still spaces them."
          error={errors.crawlerConcurrency}
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={value.concurrencyPerHost}
              onChange={(event) => onChange({ concurrencyPerHost: event.target.value })}
            >
              {CONCURRENCY.map((count) => (
                <option key={count} value={String(count)}>
                  {count}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>

      <label className="choice">
        <input
          type="checkbox"
          checked={value.render}
          aria-describedby="crawler-render-desc"
          data-testid="crawler-render"
          onChange={(event) => onChange({ render: event.target.checked })}
        />
        <span className="choice__text">
          <span className="choice__title">Render pages with Chromium</span>
          <span id="crawler-render-desc" className="choice__desc">
            Only for sites whose links appear after JavaScript: each page loads in a browser, several times
            slower, with fewer requests at once.
          </span>
        </span>
      </label>
    </div>
  );
}
