// Creating an audit from an HTTP request (multipart upload or JSON) and queueing its ingest job.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { type TCrawlerSettings, ZCrawlerRequest } from '@/lib/audits/crawler-schema';
import { insertAudit, type NewSource, siteIdForHost } from '@/lib/audits/mutations';
import {
  type TAuditOptions,
  type TCreateAuditJson,
  ZAuditName,
  ZAuditOptions,
  ZCreateAuditJson,
  ZSitemapUrl,
} from '@/lib/audits/schema';
import { auditUploadPrefix, parseMultipart } from '@/lib/audits/uploads';
import { AppError } from '@/lib/core/errors';
import { jsonBody, jsonField } from '@/lib/core/params';
import { ingestLimits } from '@/lib/db/config';
import { cancelRunFor, startRun } from '@/lib/runs/service';
import { removeStoredPrefix } from '@/lib/storage/store';
import { siteHostOf } from '@/lib/urls/site-host';
import { auditRun } from './run';

const SITEMAP_EXTENSIONS = /\.(xml|xml\.gz|gz|txt|txt\.gz|rss|atom)$/i;

function defaultName(sources: NewSource[]): string {
  const first = sources.find((s) => s.role === 'sitemap');
  let label = 'Audit';
  if (first?.url) label = new URL(first.url).host;
  else if (first?.fileName) label = first.fileName;
  return `${label} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function parseOptionsText(text: string | undefined): TAuditOptions {
  return ZAuditOptions.parse(jsonField('options', text) ?? {});
}

function validateSources(sources: NewSource[]): void {
  if (!sources.some((s) => s.role === 'sitemap')) {
    throw new AppError(
      'validation_failed',
      'Give at least one sitemap: a sitemapUrl or an uploaded sitemap file',
    );
  }
  if (sources.filter((s) => s.role === 'crawl').length > 1) {
    throw new AppError(
      'validation_failed',
      'Give one crawl export: either a crawl file or a crawlUrl, not both',
    );
  }
}

/** The crawler's settings as the audit stores them: defaults filled in, a site crawl's start URL resolved
 * (the site root of the first sitemap URL), and never beside a crawl export. */
function withCrawler(
  options: TAuditOptions,
  given: TCrawlerSettings | undefined,
  sources: NewSource[],
): TAuditOptions {
  if (given && options.crawler) {
    throw new AppError('validation_failed', 'crawler: give it once, not also inside options');
  }
  const crawler = given ?? options.crawler;
  if (!crawler) return options;
  if (sources.some((s) => s.role === 'crawl')) {
    throw new AppError(
      'validation_failed',
      'crawler: give either a crawl export (crawl, crawlUrl) or crawler to crawl the site, not both',
    );
  }
  if (crawler.mode === 'site' && !crawler.startUrl) {
    const first = sources.find((s) => s.role === 'sitemap' && s.url)?.url;
    if (!first) {
      throw new AppError(
        'validation_failed',
        'crawler.startUrl: the sitemaps were uploaded, so there is no site to start from: give a startUrl, or use mode "list"',
      );
    }
    return { ...options, crawler: { ...crawler, startUrl: `${new URL(first).origin}/` } };
  }
  return { ...options, crawler };
}

/** The multipart `crawler` field: its JSON text, through the same rules as the JSON body's. */
function parseCrawlerText(text: string | undefined): TCrawlerSettings | undefined {
  const raw = jsonField('crawler', text);
  if (raw === undefined) return undefined;
  const result = ZCrawlerRequest.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `crawler.${issue.path.join('.')}` : 'crawler';
  throw new AppError('validation_failed', `${where}: ${issue?.message ?? 'is not valid'}`);
}

/** A multipart field's value through its schema, with a message that names the field. */
function fieldValue<T>(schema: z.ZodType<T>, field: string, value: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError('validation_failed', `${field}: ${result.error.issues[0]?.message ?? 'is not valid'}`);
}

const MAX_SITEMAP_URLS = 100;

async function fromMultipart(request: Request, id: string) {
  const limits = ingestLimits();
  const prefix = auditUploadPrefix(id);
  const { fields, files } = await parseMultipart(request, prefix, {
    maxFileBytes: limits.maxUploadBytes,
    maxFiles: 1000,
  });
  try {
    const sources: NewSource[] = [];
    for (const file of files) {
      if (file.field !== 'sitemap' && file.field !== 'crawl') {
        throw new AppError(
          'validation_failed',
          `Unexpected file field "${file.field}": use "sitemap" or "crawl"`,
        );
      }
      if (file.bytes === 0) throw new AppError('validation_failed', `${file.fileName} is empty (0 bytes)`);
      if (file.field === 'sitemap' && !SITEMAP_EXTENSIONS.test(file.fileName)) {
        throw new AppError(
          'validation_failed',
          `${file.fileName}: sitemap uploads must be .xml, .xml.gz, .gz or .txt files`,
        );
      }
      sources.push({
        role: file.field,
        kind: 'upload',
        fileName: file.fileName,
        storedPath: file.storedPath,
        bytes: file.bytes,
      });
    }
    const sitemapUrls = (fields.get('sitemapUrl') ?? []).filter((url) => url.trim() !== '');
    if (sitemapUrls.length > MAX_SITEMAP_URLS) {
      throw new AppError('validation_failed', `Give at most ${MAX_SITEMAP_URLS} sitemapUrl values`);
    }
    for (const url of sitemapUrls) {
      sources.push({ role: 'sitemap', kind: 'url', url: fieldValue(ZSitemapUrl, 'sitemapUrl', url) });
    }
    for (const url of fields.get('crawlUrl') ?? []) {
      if (url.trim() === '') continue;
      sources.push({ role: 'crawl', kind: 'url', url: fieldValue(ZSitemapUrl, 'crawlUrl', url) });
    }
    validateSources(sources);
    const options = withCrawler(
      parseOptionsText(fields.get('options')?.[0]),
      parseCrawlerText(fields.get('crawler')?.[0]),
      sources,
    );
    const given = fields.get('name')?.[0];
    const name = (given === undefined ? '' : fieldValue(ZAuditName, 'name', given)) || defaultName(sources);
    return { name, options, sources, prefix };
  } catch (error) {
    await removeStoredPrefix(prefix);
    throw error;
  }
}

async function fromJson(request: Request) {
  const input: TCreateAuditJson = ZCreateAuditJson.parse(await jsonBody(request));
  const sources: NewSource[] = input.sitemapUrls.map((url) => ({ role: 'sitemap', kind: 'url', url }));
  if (input.crawlUrl) sources.push({ role: 'crawl', kind: 'url', url: input.crawlUrl });
  validateSources(sources);
  const options = withCrawler(ZAuditOptions.parse(input.options ?? {}), input.crawler, sources);
  return { name: input.name?.trim() || defaultName(sources), options, sources, prefix: null };
}

export async function createAuditFromRequest(request: Request): Promise<{ id: string; status: 'queued' }> {
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  const id = randomUUID();
  let input: { name: string; options: TAuditOptions; sources: NewSource[]; prefix: string | null };
  if (contentType.startsWith('multipart/form-data')) input = await fromMultipart(request, id);
  else if (contentType.startsWith('application/json')) input = await fromJson(request);
  else {
    throw new AppError('unsupported_media_type', 'Send multipart/form-data (with files) or application/json');
  }
  try {
    // Sitemaps given by URL name their site now (its page lists the run while it goes); uploads are put
    // in theirs when their URLs are known (lib/sites/settle.ts).
    const host = siteHostOf(input.sources.find((s) => s.role === 'sitemap' && s.kind === 'url')?.url);
    const siteId = host ? await siteIdForHost(host) : null;
    await insertAudit(id, input.name, input.options, input.sources, { siteId });
  } catch (error) {
    // No audit row refers to the files: keep nothing of a request that did not become an audit.
    if (input.prefix) await removeStoredPrefix(input.prefix);
    throw error;
  }
  await startRun(auditRun, id);
  return { id, status: 'queued' };
}

/** Stops a queued or running audit on behalf of a signed-in user (see lib/runs). */
export function cancelAudit(id: string, by: string): Promise<void> {
  return cancelRunFor(auditRun, id, by);
}
