// Creating an audit from an HTTP request (multipart upload or JSON) and queueing its ingest job.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ingestLimits, uploadsDir } from '@/lib/db/config';
import { AppError } from '@/lib/errors';
import { cancelRunFor, startRun } from '@/lib/runs/service';
import { insertAudit, type NewSource } from './mutations';
import { auditRun } from './run';
import {
  type TAuditOptions,
  type TCreateAuditJson,
  ZAuditOptions,
  ZCreateAuditJson,
  ZSitemapUrl,
} from './schema';
import { parseMultipart } from './uploads';

const SITEMAP_EXTENSIONS = /\.(xml|xml\.gz|gz|txt|txt\.gz|rss|atom)$/i;

function defaultName(sources: NewSource[]): string {
  const first = sources.find((s) => s.role === 'sitemap');
  let label = 'Audit';
  if (first?.url) label = new URL(first.url).host;
  else if (first?.fileName) label = first.fileName;
  return `${label} — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function parseOptionsText(text: string | undefined): TAuditOptions {
  if (text === undefined || text.trim() === '') return ZAuditOptions.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new AppError('validation_failed', `options is not valid JSON: ${(error as Error).message}`);
  }
  return ZAuditOptions.parse(raw);
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

async function fromMultipart(request: Request, id: string) {
  const limits = ingestLimits();
  const dir = path.join(uploadsDir(), id);
  const { fields, files } = await parseMultipart(request, dir, {
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
    for (const url of fields.get('sitemapUrl') ?? []) {
      if (url.trim() === '') continue;
      sources.push({ role: 'sitemap', kind: 'url', url: ZSitemapUrl.parse(url) });
    }
    for (const url of fields.get('crawlUrl') ?? []) {
      if (url.trim() === '') continue;
      sources.push({ role: 'crawl', kind: 'url', url: ZSitemapUrl.parse(url) });
    }
    validateSources(sources);
    const options = parseOptionsText(fields.get('options')?.[0]);
    const name = fields.get('name')?.[0]?.trim() || defaultName(sources);
    return { name, options, sources };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function fromJson(request: Request) {
  let body: unknown;
  try {
    body = await request.json();
  } catch (error) {
    throw new AppError('bad_request', `The body is not valid JSON: ${(error as Error).message}`);
  }
  const input: TCreateAuditJson = ZCreateAuditJson.parse(body);
  const sources: NewSource[] = input.sitemapUrls.map((url) => ({ role: 'sitemap', kind: 'url', url }));
  if (input.crawlUrl) sources.push({ role: 'crawl', kind: 'url', url: input.crawlUrl });
  validateSources(sources);
  const options = ZAuditOptions.parse(input.options ?? {});
  return { name: input.name?.trim() || defaultName(sources), options, sources };
}

export async function createAuditFromRequest(request: Request): Promise<{ id: string; status: 'queued' }> {
  const contentType = request.headers.get('content-type') ?? '';
  const id = randomUUID();
  let input: { name: string; options: TAuditOptions; sources: NewSource[] };
  if (contentType.startsWith('multipart/form-data')) input = await fromMultipart(request, id);
  else if (contentType.startsWith('application/json')) input = await fromJson(request);
  else {
    throw new AppError('unsupported_media_type', 'Send multipart/form-data (with files) or application/json');
  }
  await insertAudit(id, input.name, input.options, input.sources);
  await startRun(auditRun, id);
  return { id, status: 'queued' };
}

/** Stops a queued or running audit on behalf of a signed-in user (see lib/runs). */
export function cancelAudit(id: string, by: string): Promise<void> {
  return cancelRunFor(auditRun, id, by);
}
