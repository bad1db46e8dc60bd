// A worker process: takes jobs from the queue, runs them, and reaps audits whose worker died.
import { closeDb } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { runIndexFindings } from './index-findings';
import { runIngest } from './ingest';
import { getBoss, stopBoss, work } from './queue';
import { reapStaleAudits, staleAfterSeconds } from './reaper';
import { runReconcile } from './reconcile';

export interface WorkerHandle {
  stop(): Promise<void>;
}

export async function startWorker(log: (message: string) => void = console.log): Promise<WorkerHandle> {
  await getBoss('worker');
  const concurrency = Math.max(1, intEnv('WORKER_CONCURRENCY', 1));
  for (let i = 0; i < concurrency; i++) {
    await work('ingest', 0.5, runIngest);
    await work('reconcile', 0.5, runReconcile);
    await work('index-findings', 1, runIndexFindings);
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
  await reap();
  const timer = setInterval(reap, Math.max(1, Math.floor(staleAfterSeconds() / 2)) * 1000);
  log(`worker ready (pid ${process.pid}, concurrency ${concurrency})`);
  return {
    async stop() {
      clearInterval(timer);
      await stopBoss();
      await closeDb();
    },
  };
}
