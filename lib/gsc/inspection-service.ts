// URL Inspection on behalf of users (keys set and removed by admins, runs started and cancelled by
// reviewers) and the run's two step handlers, which only do the work and say what comes next (lib/runs).
import { randomInt, randomUUID } from 'node:crypto';
import { auditExists } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import { INT4_MAX } from '@/lib/core/text';
import { intEnv } from '@/lib/db/config';
import type { GscInspectionPhase, GscInspectionStep } from '@/lib/runs/phases';
import { cancelRunFor, startRun } from '@/lib/runs/service';
import type { StepHandler } from '@/lib/runs/types';
import { allocateSample } from '@/lib/spot-check/sample';
import { credentialsSecret, openKey, parseProperty, parseServiceAccountKey, sealKey } from './credentials';
import {
  credentialsOf,
  declaredCounts,
  runToInspect,
  runToSelect,
  sampleEntries,
  sealedCredentials,
} from './inspection/data';
import {
  deleteCredentials,
  type InspectionRow,
  insertInspectionRun,
  type QuotaStop,
  replaceCredentials,
  reserveQuota,
  storeBatch,
  storeFinished,
  storeTargets,
  storeWaiting,
} from './inspection/mutations';
import { GscAccessError, GscQuotaError, InspectionClient } from './inspection-client';
import { nextPacificMidnight, pacificDay } from './inspection-quota';
import { gscInspectionRun } from './inspection-run';
import {
  DEFAULT_INSPECTION_SAMPLE,
  type GscCredentialsDto,
  type TGscCredentialsInput,
  type TGscInspectionRequest,
} from './inspection-schema';
import { inspectionStateOf } from './inspection-state';

/** The run's clock: the Pacific day its calls count against and when a wait ends. Tests move it. */
export const inspectionClock = { now: (): Date => new Date() };

/** Calls a property may make a Pacific day (GSC_INSPECTION_DAILY_QUOTA, Google's 2,000 by default). */
export function dailyQuota(): number {
  return intEnv('GSC_INSPECTION_DAILY_QUOTA', 2_000);
}

// Rows are stored at most this many at a time, or after this long, so a worker that dies loses little.
const BATCH_ROWS = 25;
const BATCH_MS = 2_000;

async function requireAudit(auditId: string): Promise<void> {
  if (!(await auditExists(auditId))) throw new AppError('not_found', 'No such audit');
}

/** Checks and seals a key for the audit (an admin's PUT); answers what the API may show of it. */
export async function setCredentials(
  auditId: string,
  input: TGscCredentialsInput,
  by: string,
): Promise<GscCredentialsDto> {
  await requireAudit(auditId);
  const property = parseProperty(input.property);
  const key = parseServiceAccountKey(input.key);
  await replaceCredentials(
    auditId,
    property,
    key.clientEmail,
    sealKey(key, auditId, credentialsSecret()),
    by,
  );
  return publicCredentials(auditId);
}

export async function publicCredentials(auditId: string): Promise<GscCredentialsDto> {
  await requireAudit(auditId);
  const found = await credentialsOf(auditId);
  if (!found) throw new AppError('not_found', 'This audit has no Search Console key');
  const { id: _id, ...shown } = found;
  return shown;
}

export async function removeCredentials(auditId: string): Promise<void> {
  await requireAudit(auditId);
  if (!(await deleteCredentials(auditId))) {
    throw new AppError('not_found', 'This audit has no Search Console key');
  }
}

/** Creates a run over a sample of the audit's declared entries and queues it; 409 without a key. */
export async function startInspection(
  auditId: string,
  input: TGscInspectionRequest,
  by: string,
): Promise<string> {
  await requireAudit(auditId);
  const quota = dailyQuota();
  const sample = input.sample ?? Math.min(DEFAULT_INSPECTION_SAMPLE, quota);
  if (sample > quota) {
    throw new AppError(
      'validation_failed',
      `A run inspects at most ${quota} URLs, one day's quota (GSC_INSPECTION_DAILY_QUOTA)`,
    );
  }
  const credentials = await credentialsOf(auditId);
  if (!credentials) {
    throw new AppError('conflict', 'This audit has no Search Console key; an admin adds one first');
  }
  const counts = await declaredCounts(auditId);
  if (Object.keys(counts).length === 0) {
    throw new AppError('conflict', 'This audit declares no sitemap entries to inspect');
  }
  const id = randomUUID();
  const request = { sample, seed: input.seed ?? randomInt(0, INT4_MAX) };
  await insertInspectionRun(id, auditId, credentials.id, credentials.property, request, by);
  await startRun(gscInspectionRun, id);
  return id;
}

export function cancelInspection(runId: string, by: string): Promise<void> {
  return cancelRunFor(gscInspectionRun, runId, by);
}

export const selectStep: StepHandler<GscInspectionStep, GscInspectionPhase> = async ({ run }) => {
  const found = await runToSelect(run.id);
  if (!found) throw new AppError('not_found', 'No such URL inspection');
  // Every file gets a URL, the rest proportional to its entries (as a spot-check sample across reasons).
  const quotas = allocateSample(await declaredCounts(found.auditId), found.request.sample);
  const targets = await sampleEntries(found.auditId, quotas, found.request.seed);
  if (targets.length === 0)
    throw new AppError('conflict', 'This audit declares no sitemap entries to inspect');
  return { next: 'inspect', write: (client) => storeTargets(client, run.id, targets) };
};

export const inspectStep: StepHandler<GscInspectionStep, GscInspectionPhase> = async ({
  run,
  progress,
  signal,
}) => {
  const found = await runToInspect(run.id);
  if (!found?.targets) throw new AppError('not_found', 'No such URL inspection');
  const { auditId, property, targets } = found;
  const sealed = found.credentialId ? await sealedCredentials(found.credentialId) : null;
  if (!sealed) {
    throw new AppError(
      'conflict',
      'The Search Console key this run started with was removed or replaced; start a new run',
    );
  }
  const client = new InspectionClient({
    key: openKey(sealed, auditId, credentialsSecret()),
    property,
    signal,
  });
  const quota = dailyQuota();
  let done = found.stored;
  let errors = found.errors;
  let batch: InspectionRow[] = [];
  let flushedAt = Date.now();
  const flush = async () => {
    await storeBatch(run, auditId, batch, done);
    batch = [];
    flushedAt = Date.now();
  };
  await progress.update('inspecting', done, targets.length);

  for (; done < targets.length; ) {
    if (signal.aborted) throw signal.reason;
    const target = targets[done] as (typeof targets)[number];
    const now = inspectionClock.now();
    if (!(await reserveQuota(property, pacificDay(now), quota))) {
      const until = nextPacificMidnight(now);
      const rows = batch;
      const at = done;
      return {
        next: 'inspect',
        wait: { until, phase: 'waiting_for_quota' },
        write: (c) => storeWaiting(c, run.id, auditId, rows, at, until),
      };
    }
    let row: InspectionRow;
    try {
      const answer = await client.inspect(target.url);
      row = {
        position: done,
        url: target.url,
        key: target.key,
        fileId: target.fileId,
        inspectedAt: inspectionClock.now(),
        ...(answer.ok
          ? { status: answer.status, ...inspectionStateOf(answer.status), error: null }
          : {
              status: null,
              state: null,
              bucket: null,
              error: { code: answer.code, message: answer.message },
            }),
      };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof GscQuotaError) {
        // Google says the quota is spent: not one more call. What was answered stays, this URL is asked
        // again once the quota resets (the next Pacific day, or the next minute for the per-minute one),
        // and a spent day is recorded for the property so its other runs wait too.
        const at = inspectionClock.now();
        const until = error.limit === 'day' ? nextPacificMidnight(at) : new Date(at.getTime() + 60_000);
        const stop: QuotaStop = {
          status: error.status,
          code: error.code,
          message: error.googleMessage,
          limit: error.limit,
          at: at.toISOString(),
          day: error.limit === 'day' ? pacificDay(at) : null,
          quota,
        };
        const rows = batch;
        const position = done;
        return {
          next: 'inspect',
          wait: { until, phase: 'waiting_for_quota' },
          write: (c) => storeWaiting(c, run.id, auditId, rows, position, until, { property, stop }),
        };
      }
      // What was answered before stays; the run stops with a reason a user can act on.
      await flush();
      if (error instanceof GscAccessError)
        throw new AppError('conflict', `URL inspection stopped: ${error.message}`);
      throw new AppError('unavailable', `URL inspection stopped: ${(error as Error).message}`);
    }
    batch.push(row);
    if (row.error) errors++;
    done++;
    if (batch.length >= BATCH_ROWS || Date.now() - flushedAt >= BATCH_MS) await flush();
    await progress.update('inspecting', done, targets.length);
  }
  const rows = batch;
  return {
    outcome: errors > 0 ? 'partial' : 'succeeded',
    message: errors > 0 ? `${errors} of ${targets.length} URLs could not be inspected` : null,
    write: (c) => storeFinished(c, run.id, auditId, rows, done),
  };
};
