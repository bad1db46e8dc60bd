// Search Console imports on behalf of a reviewer (the uploads received, bounded and stored, the run created
// and queued; one import removed) and the run's parse step, which only does the work and says what comes
// next (lib/runs).
import { randomUUID } from 'node:crypto';
import { auditWithSitemaps } from '@/lib/audits/data';
import { parseMultipart } from '@/lib/audits/uploads';
import { AppError } from '@/lib/core/errors';
import type { DbClient } from '@/lib/db/types';
import type { GscImportPhase, GscImportStep } from '@/lib/runs/phases';
import { startRun } from '@/lib/runs/service';
import type { StepHandler } from '@/lib/runs/types';
import { importAuditOf, importToRun, siteHostsOf } from './data';
import { importBudget, readImportUploads } from './import-read';
import { addToSummary, emptySummary, exportRowsOf } from './import-rows';
import { gscImportRun } from './import-run';
import type { ImportedExport, ImportedFile, ImportProblem, StoredUpload } from './import-schema';
import { exportVetter } from './import-vet';
import {
  deleteGscImport,
  deleteImportRows,
  importUploadPrefix,
  insertExportRows,
  insertGscImport,
  recordImport,
  removeImportUploads,
} from './mutations';
import { DEFAULT_PARSE_LIMITS } from './parse';
import { GscFileError } from './types';

const MiB = 1024 * 1024;

/** Upload bounds: a CSV as big as the parser reads (10 MiB), a zip as big as its entries may inflate to
 * (50 MiB; lib/gsc/zip.ts), 50 files and 100 MiB a request (an export is 3–7 files of a few KB). */
export const IMPORT_LIMITS = {
  maxCsvBytes: DEFAULT_PARSE_LIMITS.maxBytes,
  maxZipBytes: 50 * MiB,
  maxFiles: 50,
  maxRequestBytes: 100 * MiB,
} as const;

const ACCEPTED = /\.(csv|tsv|txt|zip)$/i;

/** The request with its body cut off (413) once more than `max` bytes came: busboy caps each file, not
 * their sum, and the sum is what fills the disk. */
function bounded(request: Request, max: number): Request {
  if (!request.body) return request;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) {
        controller.error(
          new AppError(
            'payload_too_large',
            `The upload is larger than the ${max / MiB} MiB one import takes`,
          ),
        );
      } else controller.enqueue(chunk);
    },
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body.pipeThrough(counter),
    duplex: 'half',
  } as RequestInit);
}

function checkUploads(files: readonly { fileName: string; bytes: number }[]): void {
  if (files.length === 0) {
    throw new AppError('validation_failed', 'Send one or more files: Search Console CSV exports or zips');
  }
  for (const file of files) {
    if (!ACCEPTED.test(file.fileName)) {
      throw new AppError(
        'validation_failed',
        `${file.fileName}: upload Search Console's CSV files (.csv) or the zip it downloads (.zip)`,
      );
    }
    if (file.bytes === 0) throw new AppError('validation_failed', `${file.fileName} is empty (0 bytes)`);
    const isZip = /\.zip$/i.test(file.fileName);
    const cap = isZip ? IMPORT_LIMITS.maxZipBytes : IMPORT_LIMITS.maxCsvBytes;
    if (file.bytes > cap) {
      throw new AppError(
        'payload_too_large',
        `${file.fileName} is larger than the ${cap / MiB} MiB a Search Console ${isZip ? 'zip' : 'export'} can be`,
      );
    }
  }
}

/** The longest `issue` a request may name (Google's longest reason is under 60 characters). */
const MAX_ISSUE = 200;

/**
 * Refuses what the import would store wrongly, before any run: files that inflate past the import's
 * budget or like a zip bomb (413, reading stops there), a drill-down table that does not say its issue
 * (and none named), URLs of another site (400). The files are read here and again by the step, one export
 * at a time (a few ms for a real export): the step stays the one that stores, and files that cannot be
 * read at all are its failed import, with their lines, as before.
 */
async function vetUploads(auditId: string, uploads: readonly StoredUpload[], issue: string | null) {
  const vetter = exportVetter({ issue, siteHosts: await siteHostsOf(auditId) });
  const errors = vetter.upfront();
  if (errors.length === 0) {
    const read = await readImportUploads(uploads, {
      budget: importBudget(),
      onExport: async (exp) => {
        errors.push(...vetter.vet(exp).errors);
      },
    });
    if (read.isOverBudget) {
      const over = read.errors.filter((e) => e.isOverBudget);
      throw new AppError(
        'inflated_too_large',
        `Nothing was imported: ${over.map((e) => e.message).join('; ')}`,
      );
    }
    if (read.errors.length > 0) return;
    errors.push(...vetter.finish());
  }
  if (errors.length > 0) {
    throw new AppError(
      'validation_failed',
      `Nothing was imported: ${errors.map((e) => e.message).join('; ')}`,
    );
  }
}

/** Stores the request's files, creates the import run and queues its step; returns the import's id. */
export async function startGscImport(request: Request, auditId: string, by: string): Promise<string> {
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!contentType.startsWith('multipart/form-data')) {
    throw new AppError('unsupported_media_type', 'Send multipart/form-data with the files');
  }
  // Google's figures are read against the declared sitemap files: a sitemap-only audit takes them too.
  await auditWithSitemaps(auditId);
  const id = randomUUID();
  const prefix = importUploadPrefix(auditId, id);
  const { files, fields } = await parseMultipart(bounded(request, IMPORT_LIMITS.maxRequestBytes), prefix, {
    maxFileBytes: IMPORT_LIMITS.maxZipBytes,
    maxFiles: IMPORT_LIMITS.maxFiles,
  });
  try {
    const issue = fields.get('issue')?.[0]?.trim() || null;
    if (issue !== null && issue.length > MAX_ISSUE) {
      throw new AppError('validation_failed', `issue: at most ${MAX_ISSUE} characters`);
    }
    checkUploads(files);
    const uploads: StoredUpload[] = files.map((f) => ({
      name: f.fileName,
      storedPath: f.storedPath,
      bytes: f.bytes,
    }));
    await vetUploads(auditId, uploads, issue);
    await insertGscImport(id, auditId, uploads, by, issue);
  } catch (error) {
    await removeImportUploads(auditId, id);
    throw error;
  }
  await startRun(gscImportRun, id);
  return id;
}

/** Removes one import and its rows (admin); 404 when the audit has no such import. */
export async function removeGscImport(auditId: string, importId: string): Promise<void> {
  if (!(await deleteGscImport(auditId, importId))) {
    throw new AppError('not_found', 'No such Search Console import');
  }
}

/** The rows and uploads of a run that ended without its step's result (cancelled, or the step threw). */
export async function discardImport(importId: string, client?: DbClient): Promise<void> {
  await deleteImportRows(importId, client);
  const auditId = await importAuditOf(importId);
  if (auditId) await removeImportUploads(auditId, importId);
}

/** The longest error message kept: the problems themselves are stored whole. */
const MAX_MESSAGE = 2_000;

export const parseStep: StepHandler<GscImportStep, GscImportPhase> = async ({ run, progress, signal }) => {
  const found = await importToRun(run.id);
  if (!found) throw new AppError('not_found', 'No such Search Console import');
  const { auditId, uploads, normalization, issue } = found;
  await progress.update('parsing', 0, uploads.length);
  // An attempt that died midway (the worker restarted) left some rows: this one stores them all again.
  await deleteImportRows(run.id);
  const vetter = exportVetter({ issue, siteHosts: await siteHostsOf(auditId) });
  // The request checked the same (a 413 or 400); checked again for a run whose files were checked by an
  // older version, and because the audit's hosts are read again here.
  const errors = vetter.upfront();
  const summary = emptySummary();
  const exports: ImportedExport[] = [];
  const files: ImportedFile[] = [];
  const read =
    errors.length > 0
      ? { exports: 0, ignored: [], errors: [], isOverBudget: false }
      : await readImportUploads(uploads, {
          budget: importBudget(),
          onFile: (done) => {
            void progress.update('parsing', done, uploads.length).catch(() => {});
          },
          // Each export's rows go to Postgres before the next export is read: the worker's memory holds
          // one export, whatever the import's size. They stay invisible until the run succeeds.
          onExport: async (exp) => {
            signal.throwIfAborted();
            const vetted = vetter.vet(exp);
            errors.push(...vetted.errors);
            const named = vetted.exports[0];
            if (errors.length > 0 || !named) return; // the import fails: nothing more is worth storing
            const rows = exportRowsOf(named, exports.length, normalization);
            await insertExportRows(run.id, auditId, rows);
            addToSummary(summary, rows);
            exports.push(rows.export);
            files.push(...rows.files);
          },
        });
  // Files that cannot be read are the import's problems on their own, as the request left them.
  if (read.errors.length > 0) errors.splice(0, errors.length, ...read.errors);
  else if (errors.length === 0) errors.push(...vetter.finish());
  if (errors.length === 0 && read.exports === 0) {
    const names = uploads.map((u) => u.name).join(', ');
    errors.push(
      new GscFileError(names, [{ line: null, message: 'no Search Console export in these files' }]),
    );
  }
  if (errors.length > 0) {
    // A refusal for size is final like any other bad file: the outcome is failed, never a retry.
    const problems: ImportProblem[] = errors.map((e) => ({ name: e.file, problems: e.problems }));
    const joined = errors.map((e) => e.message).join('; ');
    const message = `Nothing was imported: ${joined.length > MAX_MESSAGE ? `${joined.slice(0, MAX_MESSAGE)}…` : joined}`;
    return {
      outcome: 'failed',
      message,
      write: async (client) => {
        await deleteImportRows(run.id, client);
        await recordImport(client, run.id, {
          files: [],
          exports: [],
          ignored: read.ignored,
          summary: null,
          problems,
        });
        await removeImportUploads(auditId, run.id);
      },
    };
  }
  return {
    outcome: 'succeeded',
    write: async (client) => {
      await recordImport(client, run.id, { files, exports, ignored: read.ignored, summary, problems: null });
      await removeImportUploads(auditId, run.id);
    },
  };
};
