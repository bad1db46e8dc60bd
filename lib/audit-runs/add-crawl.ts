// Adding a crawl export to an audit after it settled (`POST /api/v1/audits/{id}/crawl`): the export is stored
// as the audit's crawl source and the audit runs again from its add_crawl step, which reads only the crawl
// and hands on to the reconcile step; the sitemap entries read before are reused as they are.
// One crawl per audit: an audit that has one (reconciled or not) is refused, since its findings carry
// decisions that a second crawl would silently re-judge; a new audit (or Run again) reads another.
import { randomUUID } from 'node:crypto';
import { crawlAddState } from '@/lib/audits/data';
import { addCrawlSource, type NewSource } from '@/lib/audits/mutations';
import { type TAddCrawlOptions, ZAddCrawlJson, ZAddCrawlOptions, ZSitemapUrl } from '@/lib/audits/schema';
import { auditUploadPrefix, parseMultipart } from '@/lib/audits/uploads';
import { AppError } from '@/lib/core/errors';
import { jsonBody, jsonField } from '@/lib/core/params';
import { ingestLimits } from '@/lib/db/config';
import { restartRunAt } from '@/lib/runs/service';
import { removeStoredPrefix } from '@/lib/storage/store';
import { auditRun } from './run';

/** Why the audit cannot take a crawl export now (a 404 or 409), or null when it can. */
async function refusal(id: string): Promise<AppError | null> {
  const state = await crawlAddState(id);
  if (!state) return new AppError('not_found', 'No such audit');
  if (state.status === 'queued' || state.status === 'running') {
    return new AppError(
      'conflict',
      'This audit is running; add a crawl export once it has finished (or cancel it first)',
    );
  }
  if (state.status === 'failed' || state.status === 'cancelled') {
    return new AppError(
      'conflict',
      `This audit ${state.status === 'failed' ? 'failed' : 'was cancelled'}; start a new audit with the sitemaps and the crawl export`,
    );
  }
  if (state.crawl !== null) {
    return new AppError(
      'conflict',
      `This audit already has a crawl export (${state.crawl})${state.reconciled ? ', and its findings may carry decisions' : ''}: to reconcile another crawl, start a new audit with it, or Run again to repeat this one`,
    );
  }
  if (state.entries === 0) {
    return new AppError(
      'conflict',
      'This audit declares no sitemap URL, so there is nothing to reconcile a crawl with; start a new audit',
    );
  }
  if (state.step !== null) {
    return new AppError(
      'conflict',
      "This audit is still writing its site's history; try again in a few seconds",
    );
  }
  return null;
}

/** The options as given; normalization only as the audit's own (its entries were keyed with it). */
function crawlOptions(raw: unknown, normalization: string): TAddCrawlOptions {
  const options = ZAddCrawlOptions.parse(raw ?? {});
  if (options.normalization !== undefined && options.normalization !== normalization) {
    throw new AppError(
      'validation_failed',
      `options.normalization: this audit's URLs were keyed "${normalization}"; a crawl added to it is read the same way (start a new audit to use "${options.normalization}")`,
    );
  }
  const { normalization: _, ...rest } = options;
  return rest;
}

interface CrawlInput {
  source: NewSource;
  options: TAddCrawlOptions;
  /** The store prefix an upload was written under (removed when the crawl is not added). */
  prefix: string | null;
}

async function fromMultipart(request: Request, auditId: string, normalization: string): Promise<CrawlInput> {
  const prefix = `${auditUploadPrefix(auditId)}crawl-${randomUUID()}/`;
  const { fields, files } = await parseMultipart(request, prefix, {
    maxFileBytes: ingestLimits().maxUploadBytes,
    maxFiles: 2,
  });
  try {
    for (const file of files) {
      if (file.field !== 'crawl') {
        throw new AppError(
          'validation_failed',
          `Unexpected file field "${file.field}": send the crawl export as "crawl" (the audit's sitemaps stay as they were read)`,
        );
      }
      if (file.bytes === 0) throw new AppError('validation_failed', `${file.fileName} is empty (0 bytes)`);
    }
    const urls = (fields.get('crawlUrl') ?? []).filter((url) => url.trim() !== '');
    if (files.length + urls.length !== 1) {
      throw new AppError(
        'validation_failed',
        files.length + urls.length === 0
          ? 'Give the crawl export: a "crawl" file or a crawlUrl'
          : 'Give one crawl export: either a crawl file or a crawlUrl, not both',
      );
    }
    const options = crawlOptions(jsonField('options', fields.get('options')?.[0]) ?? {}, normalization);
    const file = files[0];
    if (file) {
      return {
        source: {
          role: 'crawl',
          kind: 'upload',
          fileName: file.fileName,
          storedPath: file.storedPath,
          bytes: file.bytes,
        },
        options,
        prefix,
      };
    }
    const parsed = ZSitemapUrl.safeParse(urls[0]);
    if (!parsed.success) {
      throw new AppError(
        'validation_failed',
        `crawlUrl: ${parsed.error.issues[0]?.message ?? 'is not valid'}`,
      );
    }
    await removeStoredPrefix(prefix);
    return { source: { role: 'crawl', kind: 'url', url: parsed.data }, options, prefix: null };
  } catch (error) {
    await removeStoredPrefix(prefix);
    throw error;
  }
}

async function fromJson(request: Request, normalization: string): Promise<CrawlInput> {
  const input = ZAddCrawlJson.parse(await jsonBody(request));
  return {
    source: { role: 'crawl', kind: 'url', url: input.crawlUrl },
    options: crawlOptions(input.options, normalization),
    prefix: null,
  };
}

/** Stores the request's crawl export on the audit and starts its add_crawl step. */
export async function addCrawlFromRequest(request: Request, auditId: string): Promise<void> {
  // Refused before the body is read: an upload of a refused request is never stored.
  const refused = await refusal(auditId);
  if (refused) throw refused;
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  const multipart = contentType.startsWith('multipart/form-data');
  if (!multipart && !contentType.startsWith('application/json')) {
    throw new AppError(
      'unsupported_media_type',
      'Send multipart/form-data (a "crawl" file or a crawlUrl) or application/json ({ "crawlUrl" })',
    );
  }
  const state = await crawlAddState(auditId);
  const normalization = state?.normalization ?? 'exact';
  const input = multipart
    ? await fromMultipart(request, auditId, normalization)
    : await fromJson(request, normalization);
  let started = false;
  try {
    started = await restartRunAt(auditRun, auditId, 'add_crawl', async (client) => {
      if (!(await addCrawlSource(client, auditId, input.source, input.options))) {
        throw (await refusal(auditId)) ?? new AppError('conflict', 'This audit already has a crawl export');
      }
    });
  } finally {
    if (!started && input.prefix) await removeStoredPrefix(input.prefix);
  }
  // The audit changed while the upload came in (it was deleted, or started again by another request).
  if (!started) {
    throw (await refusal(auditId)) ?? new AppError('conflict', 'This audit changed meanwhile; reload it');
  }
}
