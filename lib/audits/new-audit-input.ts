// The new-audit form's model: validating what the user entered and turning it into the options and
// multipart body POST /api/v1/audits expects.
import { formatCount } from '@/lib/core/format';
import { textProblem } from '@/lib/core/text';
import type { CrawlMode } from '@/lib/crawler/types';
import type { CrawlField } from './crawl-fields';
import { CRAWLER_DEFAULTS, CRAWLER_LIMITS, type TCrawlerRequest } from './crawler-schema';
import { CRAWL_FIELDS, type TAuditOptions } from './schema';

export const SITEMAP_FILE_PATTERN = /\.(xml|xml\.gz|gz|txt|txt\.gz|rss|atom)$/i;

/** Non-empty, trimmed lines with duplicates removed (first occurrence kept). */
export function parseUrlLines(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const value = line.trim();
    if (value) seen.add(value);
  }
  return [...seen];
}

/** Null when the value is an absolute http(s) URL, else a sentence saying what is wrong. */
export function urlProblem(value: string): string | null {
  // A NUL survives URL parsing (it is percent-encoded) but the server refuses it: say so here.
  const problem = textProblem(value);
  if (problem) return `A URL ${problem}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a full URL (start it with https://)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${value}" must start with http:// or https://`;
  return null;
}

export type CrawlFormatChoice = 'auto' | 'jsonl' | 'screaming-frog' | 'csv';

/** Where the audit's crawl comes from: none (sitemaps only), an export, or the built-in crawler. */
export type CrawlChoice = 'none' | 'export' | 'crawler';

/** The built-in crawler's fields as typed: numbers stay text until checked, so a field can be cleared. */
export interface CrawlerInput {
  mode: CrawlMode;
  startUrl: string;
  maxPages: string;
  maxDepth: string;
  concurrencyPerHost: string;
  render: boolean;
}

export function defaultCrawlerInput(): CrawlerInput {
  return {
    mode: CRAWLER_DEFAULTS.mode,
    startUrl: '',
    maxPages: String(CRAWLER_DEFAULTS.maxPages),
    maxDepth: String(CRAWLER_DEFAULTS.maxDepth),
    concurrencyPerHost: String(CRAWLER_DEFAULTS.concurrencyPerHost),
    render: CRAWLER_DEFAULTS.render,
  };
}

export interface NewAuditInput {
  name: string;
  sitemapUrlsText: string;
  sitemapFiles: readonly File[];
  crawlChoice: CrawlChoice;
  crawlFile: File | null;
  crawlUrl: string;
  normalization: 'exact' | 'lenient';
  crawlFormat: CrawlFormatChoice;
  columnMap: Partial<Record<CrawlField, string>>;
  crawler: CrawlerInput;
}

/** Which crawl source the input names; 'both' is invalid (the API takes one crawl export). */
export function crawlSource(
  input: Pick<NewAuditInput, 'crawlFile' | 'crawlUrl'>,
): 'none' | 'file' | 'url' | 'both' {
  const hasUrl = input.crawlUrl.trim() !== '';
  if (input.crawlFile) return hasUrl ? 'both' : 'file';
  return hasUrl ? 'url' : 'none';
}

export type NewAuditErrors = Partial<
  Record<
    | 'name'
    | 'sitemaps'
    | 'sitemapFiles'
    | 'crawl'
    | 'columnMap'
    | 'crawlerStartUrl'
    | 'crawlerMaxPages'
    | 'crawlerMaxDepth'
    | 'crawlerConcurrency',
    string
  >
>;

export function validateNewAudit(input: NewAuditInput): NewAuditErrors {
  const errors: NewAuditErrors = {};
  const nameProblem = textProblem(input.name);
  if (nameProblem) errors.name = `The name ${nameProblem}.`;
  else if (input.name.trim().length > 200) errors.name = 'Keep the name to 200 characters or fewer.';

  const urls = parseUrlLines(input.sitemapUrlsText);
  if (urls.length === 0 && input.sitemapFiles.length === 0) {
    errors.sitemaps = 'Add at least one sitemap: enter a URL or choose a sitemap file.';
  } else if (urls.length > 100) {
    errors.sitemaps = `Enter at most 100 sitemap URLs (you entered ${urls.length}).`;
  } else {
    const problems = urls.map(urlProblem).filter((problem): problem is string => problem !== null);
    if (problems.length > 0) {
      errors.sitemaps =
        problems.length === 1 ? (problems[0] ?? '') : `${problems[0]} (and ${problems.length - 1} more)`;
    }
  }
  const badFile = input.sitemapFiles.find((file) => !SITEMAP_FILE_PATTERN.test(file.name));
  const emptyFile = input.sitemapFiles.find((file) => file.size === 0);
  if (badFile) errors.sitemapFiles = `${badFile.name} is not a sitemap file: use .xml, .xml.gz, .gz or .txt.`;
  else if (emptyFile) errors.sitemapFiles = `${emptyFile.name} is empty.`;

  if (input.crawlChoice === 'export') return { ...errors, ...validateCrawlInput(input, true) };
  if (input.crawlChoice === 'crawler') {
    // Only uploaded sitemaps: no sitemap URL to take the site root from (the server refuses it too).
    const hasSiteRoot = urls.length > 0 || input.sitemapFiles.length === 0;
    return { ...errors, ...validateCrawlerInput(input.crawler, hasSiteRoot) };
  }
  return errors;
}

type CrawlerErrors = Pick<
  NewAuditErrors,
  'crawlerStartUrl' | 'crawlerMaxPages' | 'crawlerMaxDepth' | 'crawlerConcurrency'
>;

/** A whole number from the field's text, or null (empty, a fraction, words, digits beyond safe). */
function wholeNumber(text: string): number | null {
  const value = text.trim();
  if (!/^\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

function rangeProblem(label: string, text: string, min: number, max: number): string | null {
  const value = wholeNumber(text);
  if (value !== null && value >= min && value <= max) return null;
  return `${label} must be a whole number from ${formatCount(min)} to ${formatCount(max)}.`;
}

/** What is wrong with the crawler's fields; those list mode does not use (start URL, depth) are not read.
 * `hasSiteRoot`: a sitemap URL gives the site root a site crawl starts from when no start URL is given. */
export function validateCrawlerInput(input: CrawlerInput, hasSiteRoot = true): CrawlerErrors {
  const errors: CrawlerErrors = {};
  const isSite = input.mode === 'site';
  const startUrl = input.startUrl.trim();
  if (isSite && startUrl) {
    const problem = urlProblem(startUrl);
    if (problem) errors.crawlerStartUrl = `The start URL: ${problem}.`;
  } else if (isSite && !hasSiteRoot) {
    errors.crawlerStartUrl =
      'Enter a start URL: the sitemaps are uploaded files, so there is no site root to start from (or fetch exactly the sitemaps’ URLs).';
  }
  const pages = rangeProblem('Max pages', input.maxPages, 1, CRAWLER_LIMITS.maxPages);
  if (pages) errors.crawlerMaxPages = pages;
  const depth = isSite ? rangeProblem('Max depth', input.maxDepth, 0, CRAWLER_LIMITS.maxDepth) : null;
  if (depth) errors.crawlerMaxDepth = depth;
  const concurrency = rangeProblem(
    'Requests at once per host',
    input.concurrencyPerHost,
    1,
    CRAWLER_LIMITS.concurrencyPerHost,
  );
  if (concurrency) errors.crawlerConcurrency = concurrency;
  return errors;
}

/** The `crawler` object POST /api/v1/audits takes, from valid fields: every setting said outright, so the
 * audit records what was asked; list mode sends neither a start URL nor a depth (it follows no links). */
export function buildCrawlerRequest(input: CrawlerInput): TCrawlerRequest {
  const request: TCrawlerRequest = {
    mode: input.mode,
    maxPages: wholeNumber(input.maxPages) ?? CRAWLER_DEFAULTS.maxPages,
    concurrencyPerHost: wholeNumber(input.concurrencyPerHost) ?? CRAWLER_DEFAULTS.concurrencyPerHost,
    render: input.render,
  };
  if (input.mode === 'site') {
    const startUrl = input.startUrl.trim();
    if (startUrl) request.startUrl = startUrl;
    request.maxDepth = wholeNumber(input.maxDepth) ?? CRAWLER_DEFAULTS.maxDepth;
  }
  return request;
}

/** Where a site crawl starts when no start URL is given: the root of the first sitemap URL's site (the
 * server's own default, shown as the field's placeholder); null without a sitemap URL to take it from. */
export function defaultStartUrl(sitemapUrlsText: string): string | null {
  for (const line of parseUrlLines(sitemapUrlsText)) {
    if (urlProblem(line)) continue;
    return `${new URL(line).origin}/`;
  }
  return null;
}

/** The crawl export's fields, as the New audit form and "Add a crawl export" take them. */
export type CrawlInput = Pick<NewAuditInput, 'crawlFile' | 'crawlUrl' | 'crawlFormat' | 'columnMap'>;

/** What is wrong with the crawl fields; `required` when the form is only for the crawl. */
export function validateCrawlInput(
  input: CrawlInput,
  required = false,
): Pick<NewAuditErrors, 'crawl' | 'columnMap'> {
  const errors: Pick<NewAuditErrors, 'crawl' | 'columnMap'> = {};
  const crawl = crawlSource(input);
  if (crawl === 'none' && required) {
    errors.crawl = 'Choose the crawl export file or enter its URL.';
  } else if (crawl === 'both') {
    errors.crawl = 'Give one crawl export: remove the file or clear the URL.';
  } else if (crawl === 'file' && input.crawlFile?.size === 0) {
    errors.crawl = `${input.crawlFile.name} is empty.`;
  } else if (crawl === 'url') {
    const problem = urlProblem(input.crawlUrl.trim());
    if (problem) errors.crawl = problem;
  }

  if (crawl !== 'none' && input.crawlFormat === 'csv' && !input.columnMap.url?.trim()) {
    errors.columnMap = 'Say which column holds the page URL.';
  }
  return errors;
}

/** The multipart body POST /api/v1/audits/{id}/crawl expects: the export and its format options (the
 * audit's normalization stays its own). */
export function buildCrawlFormData(input: CrawlInput): FormData {
  const form = new FormData();
  if (input.crawlFile) form.append('crawl', input.crawlFile, input.crawlFile.name);
  else if (input.crawlUrl.trim()) form.append('crawlUrl', input.crawlUrl.trim());
  const { normalization: _, ...options } = buildAuditOptions({ ...input, normalization: 'exact' });
  form.append('options', JSON.stringify(options));
  return form;
}

export function buildAuditOptions(input: CrawlInput & Pick<NewAuditInput, 'normalization'>): TAuditOptions {
  const options: TAuditOptions = { normalization: input.normalization };
  if (crawlSource(input) === 'none' || input.crawlFormat === 'auto') return options;
  options.crawlFormat = input.crawlFormat;
  if (input.crawlFormat === 'csv') {
    const columnMap: Partial<Record<CrawlField, string>> = {};
    for (const field of CRAWL_FIELDS) {
      const header = input.columnMap[field]?.trim();
      if (header) columnMap[field] = header;
    }
    options.columnMap = columnMap;
  }
  return options;
}

/** The multipart body POST /api/v1/audits expects. */
export function buildAuditFormData(input: NewAuditInput): FormData {
  const form = new FormData();
  const name = input.name.trim();
  if (name) form.append('name', name);
  for (const url of parseUrlLines(input.sitemapUrlsText)) form.append('sitemapUrl', url);
  for (const file of input.sitemapFiles) form.append('sitemap', file, file.name);
  if (input.crawlChoice === 'crawler') {
    // The export fields a user filled before switching are not sent: the API takes one or the other.
    form.append('crawler', JSON.stringify(buildCrawlerRequest(input.crawler)));
    form.append('options', JSON.stringify({ normalization: input.normalization }));
    return form;
  }
  const exported: NewAuditInput =
    input.crawlChoice === 'export' ? input : { ...input, crawlFile: null, crawlUrl: '' };
  // Validation rejects 'both'; if it gets here anyway the file wins.
  if (exported.crawlFile) form.append('crawl', exported.crawlFile, exported.crawlFile.name);
  else if (exported.crawlUrl.trim()) form.append('crawlUrl', exported.crawlUrl.trim());
  form.append('options', JSON.stringify(buildAuditOptions(exported)));
  return form;
}

/** Adds files to a list, skipping ones already in it (same name, size and modification time). */
export function mergeFiles(existing: readonly File[], added: readonly File[]): File[] {
  const key = (file: File) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
  const seen = new Set(existing.map(key));
  const result = [...existing];
  for (const file of added) {
    if (seen.has(key(file))) continue;
    seen.add(key(file));
    result.push(file);
  }
  return result;
}
