// A worker process: takes jobs from the queue, runs them, and reaps audits whose worker died.
import { closeDb } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { runIndexFindings } from './index-findings';
import { runIngest } from './ingest';
import { getBoss, stopBoss, wakeWorkers, work } from './queue';
import { reapStaleAudits, staleAfterSeconds } from './reaper';
import { runReconcile } from './reconcile';
import { listenForJobs } from './wake';

export interface WorkerHandle {
  stop(): Promise<void>;
}

export async function startWorker(log: (message: string) => void = console.log): Promise<WorkerHandle> {
  await getBoss('worker');
  const concurrency = Math.max(1, intEnv('WORKER_CONCURRENCY', 1));
  // How often the queues are polled: the fallback for a missed wake-up (pg-boss allows 0.5 s at least).
  const poll = Math.max(0.5, Number(process.env.JOB_POLL_SECONDS) || 0.5);
  for (let i = 0; i < concurrency; i++) {
    await work('ingest', poll, runIngest);
    await work('reconcile', poll, runReconcile);
    await work('index-findings', Math.max(1, poll), runIndexFindings);
  }
  const reap = async () => {
    try {
      for (const r of await reapStaleAudits()) {
        log(
          r.status === 'queued'
            ? `requeued audit ${r.id} (attempt ${r.attempt})`
            : `gave up on audit ${r.id}`,
        );
      }
    } catch (error) {
      log(`reaper failed: ${(error as Error).message}`);
    }
  };
  // Jobs queued by other processes (the web server) start at once, not at the next poll.
  const listener = await listenForJobs(wakeWorkers, log);
  await reap();
  const timer = setInterval(reap, Math.max(1, Math.floor(staleAfterSeconds() / 2)) * 1000);
  log(`worker ready (pid ${process.pid}, concurrency ${concurrency})`);
  return {
    async stop() {
      clearInterval(timer);
      await listener.stop();
      await stopBoss();
      await closeDb();
    },
  };
}
