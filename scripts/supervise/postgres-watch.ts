// Watches the embedded Postgres this process started and starts it again when its postmaster is gone
// (killed, crashed, out of memory): before, a server that died while idle stayed down and every request
// answered 500 until a person restarted the app. The same data directory and port give the same URL,
// so the web server and workers reconnect by themselves (their pools replace dead connections).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '@/lib/db/bootstrap';
import { dataDir as configuredDataDir } from '@/lib/db/config';
import { startEmbeddedPostgres } from '@/lib/db/embedded';
import { initialState, planRestart, type RestartPolicy } from './restart-policy';

/** Where `dataDir`'s cluster lives (DATA_DIR/postgres, or staged elsewhere as root), from the
 * postgres.json its server wrote at start; null before any start. */
export function clusterDirOf(dataDir: string): string | null {
  const stateFile = path.join(dataDir, 'postgres.json');
  if (!existsSync(stateFile)) return null;
  const { clusterDir } = JSON.parse(readFileSync(stateFile, 'utf8')) as { clusterDir?: string };
  return clusterDir ?? null;
}

/** The postmaster's pid for `dataDir`'s cluster (from its postmaster.pid), or null when the files are
 * missing. Says nothing about whether that process still runs. */
export function postmasterPid(dataDir: string): number | null {
  const clusterDir = clusterDirOf(dataDir);
  const pidFile = clusterDir && path.join(clusterDir, 'postmaster.pid');
  if (!pidFile || !existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs as another user (the postgres user, when we are root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The parent of `pid` (Linux /proc); null where that cannot be read. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields after it are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/** True when `dataDir`'s postmaster is this process's child: the server this process must look after.
 * Where /proc is missing (macOS), a running server found at start is taken to be ours. */
export function ownsPostgres(dataDir: string): boolean {
  const pid = postmasterPid(dataDir);
  if (pid === null || !isRunning(pid)) return false;
  const parent = parentOf(pid);
  return parent === null || parent === process.pid;
}

export interface PostgresWatch {
  /** Restarts so far. */
  restarts(): number;
  /** Stops watching at once (a Ctrl-C reaches Postgres too: its exit then is no crash to repair). */
  unwatch(): void;
  /** Stops watching, then the server: the first one through `stopFirst` while it still runs (its own
   * stop waits for an exit that already happened when it was killed), else the one this watch started. */
  stop(): Promise<void>;
}

export interface WatchOptions {
  dataDir: string;
  port: number;
  policy: RestartPolicy;
  log: (message: string) => void;
  /** How often the postmaster's pid is checked (a `kill(pid, 0)`, no connection). */
  intervalMs?: number;
  /** Stops the server that was running when the watch began (the caller's, e.g. ensureDatabase's). */
  stopFirst: () => Promise<void>;
  /** Called after each restart with the server's URL (a new port, if the old one was taken meanwhile). */
  onRestarted?: (url: string) => void;
}

export function watchEmbeddedPostgres(options: WatchOptions): PostgresWatch {
  const { dataDir, policy, log } = options;
  const firstPid = postmasterPid(dataDir);
  let pid = firstPid;
  let state = initialState();
  let startedAt = Date.now();
  let restarts = 0;
  let stopped = false;
  let restarting: Promise<void> | null = null;
  let stopOurs: (() => Promise<void>) | null = null;
  let timer: NodeJS.Timeout | null = null;

  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(check, ms);
  };

  const restart = async () => {
    try {
      const server = await startEmbeddedPostgres({ dataDir, port: options.port, log });
      if (stopped) {
        if (server.owned) await server.stop();
        return;
      }
      if (server.owned) stopOurs = server.stop;
      pid = postmasterPid(dataDir);
      startedAt = Date.now();
      restarts += 1;
      log(`PostgreSQL is back (pid ${pid}, port ${server.port})`);
      options.onRestarted?.(server.url);
      schedule(options.intervalMs ?? 1000);
    } catch (error) {
      down(`PostgreSQL did not start again (${(error as Error).message.split('\n')[0]})`);
    }
  };

  const down = (what: string) => {
    const now = Date.now();
    const plan = planRestart(state, { now, uptimeMs: now - startedAt }, policy);
    state = plan.state;
    startedAt = now + plan.delayMs;
    log(
      plan.coolingDown
        ? `${what}; restarted ${policy.maxRestarts} times within ${policy.windowMs / 1000} s, so waiting ${plan.delayMs / 1000} s before trying again`
        : `${what}; restarting it in ${plan.delayMs / 1000} s`,
    );
    timer = setTimeout(() => {
      timer = null;
      if (!stopped) restarting = restart().finally(() => (restarting = null));
    }, plan.delayMs);
  };

  function check() {
    timer = null;
    if (stopped) return;
    if (pid !== null && isRunning(pid)) return schedule(options.intervalMs ?? 1000);
    down(`PostgreSQL (pid ${pid ?? 'unknown'}) is gone`);
  }

  function unwatch() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }

  schedule(options.intervalMs ?? 1000);
  return {
    restarts: () => restarts,
    unwatch,
    async stop() {
      unwatch();
      await restarting;
      if (firstPid !== null && pid === firstPid && isRunning(firstPid)) await options.stopFirst();
      else await stopOurs?.();
    },
  };
}

/** Watches the database a script got from ensureDatabase() when it is the embedded server this process
 * started (DATA_DIR's); null otherwise (DATABASE_URL, or a server another process of ours owns). */
export function watchOwnedPostgres(
  database: Database,
  policy: RestartPolicy,
  log: (message: string) => void,
): PostgresWatch | null {
  const dataDir = configuredDataDir();
  if (!database.embedded || !ownsPostgres(dataDir)) return null;
  return watchEmbeddedPostgres({
    dataDir,
    port: Number(new URL(database.url).port),
    policy,
    log,
    stopFirst: database.stop,
  });
}
