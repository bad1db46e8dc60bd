// For tests that stop, kill and restart a private Postgres cluster of their own.
import { type EmbeddedServer, startEmbeddedPostgres } from '@/lib/db/embedded';

/** Starts the cluster in `dataDir` again. The backends of a killed postmaster take a moment to notice and
 * exit, and until they have, Postgres refuses to start on their shared memory: so it tries for a while. */
export async function restartCluster(dataDir: string): Promise<EmbeddedServer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await startEmbeddedPostgres({ dataDir });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** What `work` throws; a test fails if it does not throw. */
export async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
