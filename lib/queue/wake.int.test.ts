// Job wake-ups across processes: what one process announces, another's listener hears, also after its
// connection was cut.
import { afterEach, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { announceJob, type JobListener, listenForJobs } from './wake';

let listener: JobListener | null = null;
afterEach(async () => {
  await listener?.stop();
  listener = null;
});

/** Resolves with the next queue name heard, or rejects after `ms`. */
function nextHeard(heard: string[], ms: number): Promise<string> {
  const start = heard.length;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (heard.length > start) resolve(heard[start] as string);
      else if (Date.now() - started > ms) reject(new Error('nothing heard'));
      else setTimeout(check, 20);
    };
    check();
  });
}

/** Whether a server process is still running a listener's connection. */
const alive = async (pid: number) =>
  (await pool().query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 1;

async function until(what: string, probe: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts this test's listener, recording what it hears and logs. */
async function listen() {
  const heard: string[] = [];
  const logs: string[] = [];
  listener = await listenForJobs(
    (queue) => heard.push(queue),
    (m) => logs.push(m),
  );
  return { heard, logs };
}

describe('job wake-ups', () => {
  it('carry the queue name from the announcing process to the listener', async () => {
    const { heard, logs } = await listen();
    const next = nextHeard(heard, 5000);
    await announceJob('ingest');
    expect(await next).toBe('ingest');
    expect(logs).toEqual([]);
  });

  it('reconnect after the connection is cut, and are heard again', async () => {
    const { heard, logs } = await listen();
    const first = listener?.backendPid();
    expect(first).toBeTypeOf('number');
    await pool().query('SELECT pg_terminate_backend($1)', [first]);
    // Reconnects 1 s after the loss; announcements until then are missed (polling finds those jobs).
    await until('a new listening connection', () => {
      const pid = listener?.backendPid();
      return typeof pid === 'number' && pid !== first;
    });
    expect(logs.join('\n')).toMatch(/job listener: .*reconnecting/);
    const next = nextHeard(heard, 5000);
    await announceJob('reconcile');
    expect(await next).toBe('reconcile');
  });

  it('stop listening when stopped', async () => {
    const stopped = await listenForJobs(
      () => {},
      () => {},
    );
    const pid = stopped.backendPid() as number;
    expect(await alive(pid)).toBe(true);
    await stopped.stop();
    expect(stopped.backendPid()).toBeNull();
    await until('the connection to close', async () => !(await alive(pid)), 5000);
  });
});
