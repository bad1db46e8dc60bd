// Keeps one child process running: restarts it when it exits (restart-policy.ts says when), until stop().
// Used by the launcher for the web server and the worker, each supervised on its own so that one's
// trouble never touches the other.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { initialState, planRestart, type RestartPolicy } from './restart-policy';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  /** Read at every (re)start, so a changed environment (a new database port) reaches the next child. */
  options: () => SpawnOptions;
}

export interface Supervised {
  /** The running child, or null between an exit and its restart. */
  current(): ChildProcess | null;
  /** Starts so far, the first included. */
  starts(): number;
  /** Stops the child (SIGTERM, SIGKILL after `graceMs`) and restarts nothing more. */
  stop(graceMs?: number): Promise<void>;
  /** Ends the running child so that it is started again (e.g. with a new environment). */
  restart(): void;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function supervise(
  spec: ChildSpec,
  policy: RestartPolicy,
  log: (message: string) => void,
): Supervised {
  let child: ChildProcess | null = null;
  let state = initialState();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let starts = 0;

  const start = () => {
    timer = null;
    if (stopping) return;
    const startedAt = Date.now();
    const next = spawn(spec.command, spec.args, spec.options());
    child = next;
    starts += 1;
    log(`${spec.name} started (pid ${next.pid})`);
    // A spawn failure (missing binary) ends in 'exit' too, or only in 'error': both restart.
    let ended = false;
    const onEnd = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (ended) return;
      ended = true;
      if (child === next) child = null;
      if (stopping) return;
      const now = Date.now();
      const plan = planRestart(state, { now, uptimeMs: now - startedAt }, policy);
      state = plan.state;
      const how = error ? `failed to start (${error.message})` : `exited (${signal ?? `code ${code}`})`;
      log(
        plan.coolingDown
          ? `${spec.name} ${how} after ${seconds(now - startedAt)}; it was restarted ${policy.maxRestarts} times in ${seconds(policy.windowMs)}, so it waits ${seconds(plan.delayMs)} before the next try`
          : `${spec.name} ${how} after ${seconds(now - startedAt)}; restarting in ${seconds(plan.delayMs)} (restart ${plan.inWindow} of ${policy.maxRestarts} allowed in ${seconds(policy.windowMs)})`,
      );
      timer = setTimeout(start, plan.delayMs);
    };
    next.once('exit', (code, signal) => onEnd(code, signal));
    next.once('error', (error) => onEnd(null, null, error));
  };

  start();
  return {
    current: () => child,
    starts: () => starts,
    restart() {
      child?.kill('SIGTERM');
    },
    async stop(graceMs = 15_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => running.kill('SIGKILL'), graceMs);
        running.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        running.kill('SIGTERM');
      });
    },
  };
}
