// A worker process: takes jobs from the queue, runs them, and reaps audits whose worker died.
import { closeDb } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { runIndexFindings } from './index-findings';
import { runIngest } from './ingest';
import { type AuditJobData, getBoss, stopBoss } from './queue';
import { reapStaleAudits, staleAfterSeconds } from './reaper';
import { runReconcile } from './reconcile';

export interface WorkerHandle {
  stop(): Promise<void>;
}

export async function startWorker(log: (message: string) => void = console.log): Promise<WorkerHandle> {
  const boss = await getBoss('worker');
  const concurrency = Math.max(1, intEnv('WORKER_CONCURRENCY', 1));
  for (let i = 0; i < concurrency; i++) {
    await boss.work<AuditJobData>('ingest', { pollingIntervalSeconds: 0.5, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await runIngest(job.data);
    });
    await boss.work<AuditJobData>(
      'reconcile',
      { pollingIntervalSeconds: 0.5, batchSize: 1 },
      async (jobs) => {
        for (const job of jobs) await runReconcile(job.data);
      },
    );
    await boss.work<AuditJobData>(
      'index-findings',
      { pollingIntervalSeconds: 1, batchSize: 1 },
      async (jobs) => {
        for (const job of jobs) await runIndexFindings(job.data);
      },
    );
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
