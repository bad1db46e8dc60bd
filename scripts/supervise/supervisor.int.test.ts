// The launcher's supervision with real child processes: one that keeps exiting is restarted past the old
// lifetime limit (6 starts) through backoff and cool-downs, while its sibling keeps running untouched.
import { afterEach, describe, expect, it } from 'vitest';
import type { RestartPolicy } from './restart-policy';
import { type Supervised, supervise } from './supervisor';

// The window spans the whole test, so however slowly a loaded machine starts `node`, the budget is spent
// after three restarts and every later one is a cool-down.
const fast: RestartPolicy = {
  maxRestarts: 3,
  windowMs: 60_000,
  baseDelayMs: 20,
  maxDelayMs: 80,
  coolDownMs: 300,
  stableAfterMs: 5_000,
};

const node = (script: string) => ({
  command: process.execPath,
  args: ['-e', script],
  options: () => ({ stdio: 'ignore' as const }),
});

let running: Supervised[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop(1000)));
  running = [];
});

async function until(what: string, probe: () => boolean, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('supervise', () => {
  it('keeps restarting a child that keeps exiting, cooling down when the budget is spent, and leaves its sibling alone', async () => {
    const logs: string[] = [];
    const sibling = supervise({ name: 'web', ...node('setInterval(() => {}, 1000)') }, fast, (m) =>
      logs.push(m),
    );
    const flapping = supervise(
      { name: 'worker', ...node('setTimeout(() => process.exit(3), 30)') },
      fast,
      (m) => logs.push(m),
    );
    running = [sibling, flapping];
    const siblingPid = sibling.current()?.pid;
    expect(siblingPid).toBeTypeOf('number');

    // The old launcher stopped everything at the sixth exit.
    await until('eight starts of the failing child', () => flapping.starts() >= 8, 30_000);

    expect(sibling.starts()).toBe(1);
    expect(sibling.current()?.pid).toBe(siblingPid);
    expect(sibling.current()?.exitCode).toBeNull();
    const text = logs.join('\n');
    expect(text).toMatch(
      /worker exited \(code 3\) after [\d.]+ s; restarting in [\d.]+ s \(restart 1 of 3 allowed in 60 s\)/,
    );
    expect(text).toMatch(
      /worker exited \(code 3\) .*restarted 3 times in 60 s, so it waits 0.3 s before the next try/,
    );
    expect(text).not.toMatch(/web exited/);
  });

  it('restarts a child killed by a signal, and stop() ends it for good', async () => {
    const logs: string[] = [];
    const web = supervise({ name: 'web', ...node('setInterval(() => {}, 1000)') }, fast, (m) => logs.push(m));
    running = [web];
    const first = web.current();
    first?.kill('SIGKILL');
    await until('a second web process', () => web.starts() === 2 && web.current() !== null);
    expect(web.current()?.pid).not.toBe(first?.pid);
    expect(logs.join('\n')).toMatch(/web exited \(SIGKILL\)/);

    const second = web.current();
    await web.stop(1000);
    expect(second?.signalCode).toBe('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    expect(web.starts()).toBe(2);
    expect(web.current()).toBeNull();
  });
});
