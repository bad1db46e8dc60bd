// Wakes workers in other processes when a job is queued. pg-boss polls its queues (every 0.5 s here);
// the web server queues an audit's first job, and a NOTIFY on the app's own Postgres lets the worker
// process start it at once instead of at its next poll. Polling stays the fallback: a listener that
// lost its connection only makes pickup as slow as it was without one.
import 'server-only';
import pg from 'pg';
import { databaseUrl, pool } from '@/lib/db/client';

export const JOBS_CHANNEL = 'sitemap_audit_jobs';

/** Tells listening processes that a job was queued on `queue`. */
export async function announceJob(queue: string): Promise<void> {
  await pool().query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, queue]);
}

export interface JobListener {
  /** The listening connection's server process (null while reconnecting): for diagnostics and tests. */
  backendPid(): number | null;
  stop(): Promise<void>;
}

/** Calls `onJob` with the queue's name for every job another process announces; reconnects after a
 * lost connection (1 s later, then every 5 s while it keeps failing). */
export async function listenForJobs(
  onJob: (queue: string) => void,
  log: (message: string) => void,
): Promise<JobListener> {
  let client: pg.Client | null = null;
  let listening: number | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (delayMs: number): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl() });
    const lost = (reason: string) => {
      if (client !== next || stopped) return;
      client = null;
      listening = null;
      next.end().catch(() => {});
      log(`job listener: ${reason}; reconnecting (queued jobs are still found by polling)`);
      retry = setTimeout(() => void connect(5000), delayMs);
    };
    next.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL && message.payload) onJob(message.payload);
    });
    next.on('error', (error) => lost(error.message));
    next.on('end', () => lost('connection closed'));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${JOBS_CHANNEL}`);
      if (client === next) listening = (next as pg.Client & { processID: number }).processID;
    } catch (error) {
      lost((error as Error).message);
    }
  };

  await connect(1000);
  return {
    backendPid: () => listening,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      listening = null;
      await open?.end().catch(() => {});
    },
  };
}
