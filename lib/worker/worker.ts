// A worker process: takes the steps of every run kind from the queue, runs them, and reaps runs whose
// worker died.
import 'server-only';
import { tickSchedules } from '@/lib/audit-runs/jobs/schedule-tick';
import { auditRun } from '@/lib/audit-runs/run';
import { closeDb } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { gscImportRun } from '@/lib/gsc/import-run';
import { gscInspectionRun } from '@/lib/gsc/inspection-run';
import { startHeartbeat, workerIdentity } from '@/lib/health/heartbeat';
import { lintRun } from '@/lib/hygiene/audit/run';
import {
  getBoss,
  scheduleQueue,
  schedulerMonitorSeconds,
  stopBoss,
  tolerateQueueBookkeepingFailures,
  wakeWorkers,
  work,
} from '@/lib/queue/queue';
import { listenForJobs } from '@/lib/queue/wake';
import { reapStaleRuns } from '@/lib/runs/reaper';
import { runStep } from '@/lib/runs/runner';
import { staleAfterSeconds } from '@/lib/runs/settings';
import type { RunKind } from '@/lib/runs/types';
import { retryBaseSeconds } from '@/lib/sites/jobs/webhook-delivery';
import { startDeliveryDispatcher } from '@/lib/sites/jobs/webhook-dispatch';
import { sealLegacySecrets } from '@/lib/sites/webhooks/mutations';
import { DELIVERY_QUEUE } from '@/lib/sites/webhooks/service';
import { readDeliverySettings } from '@/lib/sites/webhooks/settings';
import { spotCheckRunsAtOnce } from '@/lib/spot-check/budget';
import { spotCheckRun } from '@/lib/spot-check/run';

/** pg-boss keeps one cron schedule per queue: this one tick a minute finds every site schedule due. */
export const SCHEDULE_TICK = { queue: 'site-schedules', cron: '* * * * *' } as const;

/** Every kind of background run this worker serves. */
export const RUN_KINDS: readonly RunKind[] = [
  auditRun,
  spotCheckRun,
  gscImportRun,
  gscInspectionRun,
  lintRun,
];

export interface WorkerHandle {
  stop(): Promise<void>;
}

/** Starts pg-boss, waiting (1 s, doubling to 30 s) while the database is down instead of failing: a worker
 * started during a Postgres restart must come up when it is back, not exit and be restarted in a loop. */
async function startBoss(log: (message: string) => void): Promise<void> {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
    try {
      await getBoss('worker');
      return;
    } catch (error) {
      log(`the job queue cannot start (${(error as Error).message}); retrying in ${delay / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export async function startWorker(log: (message: string) => void = console.log): Promise<WorkerHandle> {
  tolerateQueueBookkeepingFailures(log);
  // Read once here, so a typo stops the worker at its start instead of failing every start of the queue
  // (retried for ever below) or a delivery after its POST.
  schedulerMonitorSeconds();
  retryBaseSeconds();
  spotCheckRunsAtOnce();
  readDeliverySettings();
  await startBoss(log);
  const concurrency = Math.max(1, intEnv('WORKER_CONCURRENCY', 1));
  // Registered (what /api/health lists) before the first job can be taken, so every step it claims is
  // counted on its row and recorded on the run under its id and host.
  const identity = workerIdentity(concurrency);
  const heartbeat = await startHeartbeat(identity, log);
  const self = { id: identity.id, host: identity.host };
  // How often the queues are polled: the fallback for a missed wake-up (pg-boss allows 0.5 s at least).
  const poll = Math.max(0.5, Number(process.env.JOB_POLL_SECONDS) || 0.5);
  for (let i = 0; i < concurrency; i++) {
    for (const kind of RUN_KINDS) {
      for (const step of kind.steps) {
        // Follow-up steps (index builds) are background work: polled less eagerly.
        await work(step.queue, step.followUp ? Math.max(1, poll) : poll, (data) =>
          runStep(kind, step.name, data, self),
        );
      }
    }
  }
  // The check step of a spot-check can take minutes (a slow or rate-limiting host, up to its budget): more
  // takers of that queue, so another audit's small run starts beside a slow one instead of behind it.
  // Host limits and Retry-After pauses are shared by these runs (lib/spot-check/politeness.ts), and a
  // killed worker's run is re-queued by the reaper as any step is.
  const check = spotCheckRun.steps.find((s) => s.name === 'check');
  if (check) {
    for (let i = concurrency; i < Math.max(concurrency, spotCheckRunsAtOnce()); i++) {
      await work(check.queue, poll, (data) => runStep(spotCheckRun, check.name, data, self));
    }
  }
  // Webhook deliveries are not queue jobs: the dispatcher claims due rows itself, one per webhook at a time,
  // so a receiver that never answers holds only its own webhook. Webhooks made before secrets were sealed
  // are sealed first.
  const sealed = await sealLegacySecrets().catch((error: Error) => {
    log(
      `could not seal the plain-text webhook secrets (${error.message}); each is sealed at its next delivery`,
    );
    return 0;
  });
  if (sealed > 0) log(`sealed the plain-text secrets of ${sealed} webhooks`);
  const dispatcher = startDeliveryDispatcher({ pollMs: poll * 1000, log });
  // Jobs queued for the queue by an earlier version only wake the dispatcher now.
  await work<object>(DELIVERY_QUEUE, poll, async () => dispatcher.kick());
  await work<object>(SCHEDULE_TICK.queue, poll, async () => {
    for (const outcome of await tickSchedules()) {
      log(
        outcome.auditId
          ? `schedule ${outcome.scheduleId} started audit ${outcome.auditId} of site ${outcome.siteId}`
          : `schedule ${outcome.scheduleId} of site ${outcome.siteId} skipped: ${outcome.skipped}`,
      );
    }
  });
  await scheduleQueue(SCHEDULE_TICK.queue, SCHEDULE_TICK.cron);
  const reap = async () => {
    try {
      for (const r of await reapStaleRuns(RUN_KINDS)) {
        log(
          r.step !== null
            ? `requeued the ${r.step} step of ${r.kind} ${r.id} (attempt ${r.attempt})`
            : `gave up on ${r.kind} ${r.id}`,
        );
      }
    } catch (error) {
      log(`reaper failed: ${(error as Error).message}`);
    }
  };
  // Jobs queued by other processes (the web server) start at once, not at the next poll.
  const listener = await listenForJobs(
    (queue) => (queue === DELIVERY_QUEUE ? dispatcher.kick() : wakeWorkers(queue)),
    log,
  );
  await reap();
  const timer = setInterval(reap, Math.max(1, Math.floor(staleAfterSeconds() / 2)) * 1000);
  log(
    `worker ready (id ${identity.id}, host ${identity.host}, pid ${process.pid}, concurrency ${concurrency})`,
  );
  return {
    async stop() {
      clearInterval(timer);
      await dispatcher.stop();
      await heartbeat.stop();
      await listener.stop();
      await stopBoss();
      await closeDb();
    },
  };
}
