// Running a site again: a new audit repeating an earlier audit's sources (its sitemap and crawl URLs are
// fetched afresh; its uploaded files are copied, and its crawl export may be replaced by a new upload), its
// options and its settings. Used by "Run again" (POST /api/v1/sites/{id}/runs) and by schedules.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { auditRun } from '@/lib/audit-runs/run';
import { getAuditSources } from '@/lib/audits/data';
import { insertAudit, type NewSource } from '@/lib/audits/mutations';
import { ZAuditName, ZAuditOptions } from '@/lib/audits/schema';
import { auditUploadPrefix, parseMultipart } from '@/lib/audits/uploads';
import { AppError } from '@/lib/core/errors';
import { jsonBody } from '@/lib/core/params';
import { ingestLimits } from '@/lib/db/config';
import { startRun } from '@/lib/runs/service';
import { latestAuditOfSite } from '@/lib/sites/data';
import { insertSiteRun } from '@/lib/sites/mutations';
import { runBaseName } from '@/lib/sites/run-times';
import { type CreatedSiteRunDto, type RunTrigger, ZSiteRunInput } from '@/lib/sites/schema';
import { uploadKey } from '@/lib/storage/keys';
import { copyStored, removeStoredPrefix } from '@/lib/storage/store';
import { isStorageError } from '@/lib/storage/types';

export interface SiteRunRequest {
  siteId: string;
  /** The audit to repeat; the site's newest when absent. */
  fromAuditId?: string;
  name?: string;
  trigger: Exclude<RunTrigger, 'manual'>;
  scheduleId?: number | null;
  /** A new crawl export (already stored under the new audit's prefix) replacing the old one. */
  crawl?: { fileName: string; storedPath: string; bytes: number };
}

function runName(previous: string, trigger: SiteRunRequest['trigger']): string {
  // "example.com — 2026-12-01 10:00 UTC (scheduled)" becomes "example.com — <now> UTC": the old date would
  // mislead, and a name must not pile up one stamp per run (runBaseName drops them all).
  const base = runBaseName(previous);
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return `${base} — ${stamp} UTC${trigger === 'schedule' ? ' (scheduled)' : ''}`.slice(0, 200);
}

/** Creates and queues the run; 404 without the audit to repeat, 409 while a run of the site is going. */
export async function startSiteRun(
  request: SiteRunRequest,
  id: string = randomUUID(),
): Promise<CreatedSiteRunDto> {
  const from = request.fromAuditId
    ? await getAuditSources(request.fromAuditId)
    : await latestAuditOfSite(request.siteId).then((latest) => (latest ? getAuditSources(latest) : null));
  if (!from) {
    throw new AppError(
      'not_found',
      request.fromAuditId ? 'No such audit to run again' : 'The site has no audit to run again',
    );
  }
  if (from.siteId !== request.siteId) {
    throw new AppError('validation_failed', 'fromAuditId: that audit belongs to another site');
  }
  const prefix = auditUploadPrefix(id);
  const sources: NewSource[] = [];
  try {
    for (const [index, source] of from.sources.entries()) {
      if (source.role === 'crawl' && request.crawl) continue;
      if (source.kind === 'url') {
        if (source.url)
          sources.push({ role: source.role as NewSource['role'], kind: 'url', url: source.url });
        continue;
      }
      if (!source.storedPath || !source.fileName) continue;
      // The earlier object's name without its number (a key's last segment, or an older row's file name).
      const name =
        source.storedPath
          .split(/[\\/]/)
          .pop()
          ?.replace(/^\d{4}-/, '') ?? source.fileName;
      const storedPath = uploadKey(prefix, index, name);
      // A bucket copies it itself (CopyObject): the bytes never pass through this process.
      await copyStored(source.storedPath, storedPath).catch((error: unknown) => {
        if (isStorageError(error, 'not_found')) {
          throw new AppError(
            'conflict',
            `The uploaded file ${source.fileName} of "${from.name}" is no longer stored; create a new audit with it`,
          );
        }
        throw error;
      });
      sources.push({
        role: source.role as NewSource['role'],
        kind: 'upload',
        fileName: source.fileName,
        storedPath,
        bytes: source.bytes === null ? undefined : Number(source.bytes),
      });
    }
    if (request.crawl) sources.push({ role: 'crawl', kind: 'upload', ...request.crawl });
    const options = ZAuditOptions.parse(from.options);
    // A crawl export given with Run again replaces the built-in crawl, as it replaces an earlier export.
    if (request.crawl) delete options.crawler;
    await insertSiteRun(request.siteId, async (prisma) => {
      await insertAudit(
        id,
        request.name || runName(from.name, request.trigger),
        options,
        sources,
        {
          siteId: request.siteId,
          trigger: request.trigger,
          rerunOf: from.id,
          scheduleId: request.scheduleId ?? null,
        },
        prisma,
      );
      await prisma.audit.update({ where: { id }, data: { settings: from.settings ?? {} } });
    });
  } catch (error) {
    await removeStoredPrefix(prefix);
    throw error;
  }
  await startRun(auditRun, id);
  return { id, status: 'queued', siteId: request.siteId, rerunOf: from.id };
}

/** `POST /api/v1/sites/{id}/runs`: JSON `{ fromAuditId?, name? }`, or multipart with those fields and a
 * `crawl` file replacing the crawl export. */
export async function startSiteRunFromRequest(request: Request, siteId: string): Promise<CreatedSiteRunDto> {
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  const id = randomUUID();
  if (contentType.startsWith('multipart/form-data')) {
    const prefix = auditUploadPrefix(id);
    const { fields, files } = await parseMultipart(request, prefix, {
      maxFileBytes: ingestLimits().maxUploadBytes,
      maxFiles: 1,
    });
    try {
      const unexpected = files.find((file) => file.field !== 'crawl');
      if (unexpected) {
        throw new AppError(
          'validation_failed',
          `Unexpected file field "${unexpected.field}": only "crawl" replaces a source`,
        );
      }
      const crawl = files[0];
      if (crawl && crawl.bytes === 0)
        throw new AppError('validation_failed', `${crawl.fileName} is empty (0 bytes)`);
      const input = ZSiteRunInput.parse({
        fromAuditId: fields.get('fromAuditId')?.[0] || undefined,
        name: fields.get('name')?.[0] || undefined,
      });
      return await startSiteRun(
        {
          siteId,
          trigger: 'rerun',
          fromAuditId: input.fromAuditId,
          name: input.name ? ZAuditName.parse(input.name) : undefined,
          crawl: crawl
            ? { fileName: crawl.fileName, storedPath: crawl.storedPath, bytes: crawl.bytes }
            : undefined,
        },
        id,
      );
    } catch (error) {
      await removeStoredPrefix(prefix);
      throw error;
    }
  }
  if (contentType.startsWith('application/json') || (request.headers.get('content-length') ?? '0') === '0') {
    const raw = contentType.startsWith('application/json') ? await jsonBody(request) : {};
    const input = ZSiteRunInput.parse(raw);
    return startSiteRun({ siteId, trigger: 'rerun', fromAuditId: input.fromAuditId, name: input.name }, id);
  }
  throw new AppError(
    'unsupported_media_type',
    'Send application/json, or multipart/form-data with a crawl file',
  );
}
