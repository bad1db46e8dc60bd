// The job queue (pg-boss on the app's own Postgres). A job only carries a run's id and attempt; the run's
// row holds the truth about it (lib/runs: status, step, phase, counters, errors).
import 'server-only';
import PgBoss from 'pg-boss';
import { databaseUrl } from '@/lib/db/client';
import { QUEUES, type QueueName } from '@/lib/db/queues';
import { announceJob } from './wake';

export { CRON_QUEUE, QUEUES, type QueueName } from '@/lib/db/queues';

/** A job's payload (lib/runs/types.ts RunJobData); jobs queued before runs carried `auditId`. */
export type JobData = { runId: string; attempt: number } | { auditId: string; attempt: number };

interface BossGlobals {
  boss?: Promise<PgBoss>;
  /** Ids of this process's workers per queue: a job sent from here wakes them without waiting for a poll. */
  workers?: Map<QueueName, string[]>;
  /** Whether this process logs pg-boss's unawaited bookkeeping failures (see below) instead of dying. */
  tolerating?: boolean;
}
const globals = globalThis as typeof globalThis & { __sitemapAuditBoss?: BossGlobals };
globals.__sitemapAuditBoss ??= {};
const state: BossGlobals = globals.__sitemapAuditBoss;

/** How often a worker's pg-boss looks for cron schedules due (SCHEDULER_MONITOR_SECONDS, 1–45; pg-boss's
 * default 30): the site schedules' tick is sent within that long after each minute starts. */
export function schedulerMonitorSeconds(): number {
  const raw = process.env.SCHEDULER_MONITOR_SECONDS;
  if (raw === undefined || raw.trim() === '') return 30;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 45) {
    throw new Error(`SCHEDULER_MONITOR_SECONDS must be a whole number from 1 to 45, got "${raw}"`);
  }
  return value;
}

/** A started pg-boss instance. Workers supervise (expire stuck jobs) and send cron schedules' jobs; web
 * processes only send. */
export function getBoss(role: 'web' | 'worker' = 'web'): Promise<PgBoss> {
  state.boss ??= (async () => {
    const boss = new PgBoss({
      connectionString: databaseUrl(),
      max: 4,
      supervise: role === 'worker',
      schedule: role === 'worker',
      // The cron job is sent through pg-boss's own queue, polled every cronWorkerIntervalSeconds (its default
      // 5 s): no slower than the monitor, or SCHEDULER_MONITOR_SECONDS=1 would still wait 5 s for it.
      ...(role === 'worker'
        ? {
            cronMonitorIntervalSeconds: schedulerMonitorSeconds(),
            cronWorkerIntervalSeconds: Math.min(5, schedulerMonitorSeconds()),
          }
        : {}),
      migrate: true,
    });
    boss.on('error', (error: Error) => console.error(`[queue] ${error.message}`));
    try {
      await boss.start();
      for (const name of QUEUES) await boss.createQueue(name);
    } catch (error) {
      // The next getBoss builds a new instance; this one must not leave a pool or timers behind.
      await boss.stop({ graceful: false, wait: false }).catch(() => {});
      throw error;
    }
    return boss;
  })();
  state.boss.catch(() => {
    state.boss = undefined;
  });
  return state.boss;
}

/**
 * pg-boss 10 records a job's completion or failure without awaiting it (manager.js, `this.complete(…)` and
 * `this.fail(…)` in its fetch loop): when the database is down at that moment the rejection is unhandled,
 * and Node ends the process. That was the worker's crash loop after a Postgres crash mid-job. Only those
 * rejections are logged here; any other unhandled rejection still ends the process as before. The job
 * left `active` is expired by pg-boss later and then does nothing (its run moved on; lib/runs claims).
 */
export function tolerateQueueBookkeepingFailures(log: (message: string) => void): void {
  if (state.tolerating) return;
  state.tolerating = true;
  process.on('unhandledRejection', (reason) => {
    const stack = reason instanceof Error ? (reason.stack ?? '') : '';
    if (/pg-boss[\\/]src[\\/]manager\.js/.test(stack) && /Manager\.(complete|fail)\b/.test(stack)) {
      log(`could not record a job's end in the queue (${(reason as Error).message}); it expires later`);
      return;
    }
    throw reason;
  });
}

/** Registers a worker for a queue in this process (see enqueue). */
export async function work<D extends object = JobData>(
  name: QueueName,
  pollingIntervalSeconds: number,
  run: (data: D) => Promise<void>,
): Promise<void> {
  const boss = await getBoss('worker');
  const id = await boss.work<D>(name, { pollingIntervalSeconds, batchSize: 1 }, async (jobs) => {
    for (const job of jobs) await run(job.data);
  });
  state.workers ??= new Map();
  state.workers.set(name, [...(state.workers.get(name) ?? []), id]);
}

/** Makes this process's workers of a queue look for a job now instead of at their next poll. */
export function wakeWorkers(name: string): void {
  const boss = state.boss;
  const ids = state.workers?.get(name as QueueName);
  if (!boss || !ids) return;
  void boss.then((started) => {
    for (const id of ids) started.notifyWorker(id);
  });
}

export async function enqueue(
  name: QueueName,
  data: { runId: string; attempt: number },
  /** startAfter: the job is not handed to a worker before then (a run waiting for tomorrow's quota). */
  options: { startAfter?: Date } = {},
): Promise<void> {
  const boss = await getBoss();
  await boss.send(name, data, {
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    singletonKey: `${data.runId}:${data.attempt}`,
    retryLimit: 2,
    retryDelay: 5,
    // A job whose worker vanished is also caught sooner by the heartbeat reaper (lib/runs/reaper.ts).
    expireInSeconds: 6 * 3600,
  });
  // A step queued by a step (ingest → reconcile → index-findings) starts at once in this process; one queued
  // by the web server wakes the worker processes (lib/queue/wake.ts).
  wakeWorkers(name);
  await announceJob(name).catch((error: Error) =>
    console.error(`[queue] could not announce the ${name} job (it is found by polling): ${error.message}`),
  );
}

/** Queues a job that is not a run's step (the schedules tick): `singletonKey` makes sending the
 * same attempt twice queue it once. Woken like enqueue's. */
export async function sendJob(
  name: QueueName,
  data: object,
  options: { singletonKey: string; startAfter?: Date },
): Promise<void> {
  const boss = await getBoss();
  await boss.send(name, data, {
    singletonKey: options.singletonKey,
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 15 * 60,
  });
  wakeWorkers(name);
  await announceJob(name).catch((error: Error) =>
    console.error(`[queue] could not announce the ${name} job (it is found by polling): ${error.message}`),
  );
}

/** Makes pg-boss send a job to `name` on `cron` (UTC); one schedule per queue, so registering again only
 * replaces it. Sent by whichever worker's monitor finds it due first (pg-boss keeps it once a minute). */
export async function scheduleQueue(name: QueueName, cron: string): Promise<void> {
  const boss = await getBoss('worker');
  // A tick that failed is not retried: the next one comes a minute later and finds what is still due.
  await boss.schedule(name, cron, {}, { tz: 'UTC', retryLimit: 0, expireInSeconds: 15 * 60 });
}

export async function stopBoss(): Promise<void> {
  const pending = state.boss;
  state.boss = undefined;
  state.workers = undefined;
  if (pending) await (await pending).stop({ graceful: true, wait: true, timeout: 10_000 });
}
