// A clock for tests: time stands still until nothing else can happen, then jumps to the earliest sleep's
// end. Code that takes a `now`/`sleep` pair runs through hours of pauses in milliseconds, deterministically.

interface Timer {
  at: number;
  order: number;
  wake: () => void;
}

export class FakeClock {
  time = 0;
  private timers: Timer[] = [];
  private order = 0;

  readonly now = (): number => this.time;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = {
        at: this.time + Math.max(0, ms),
        order: ++this.order,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((t) => t !== timer);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });

  /** Settles `work`, firing the earliest timer each time the event loop has nothing else to do. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    work.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    let idleTurns = 0;
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) break;
      if (this.timers.length === 0) {
        // Something real (I/O) may still be on its way; give it turns, but do not spin forever.
        if (++idleTurns > 1_000)
          throw new Error('FakeClock.run: nothing is pending and the work never settled');
        continue;
      }
      idleTurns = 0;
      this.timers.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.timers.shift() as Timer;
      this.time = Math.max(this.time, next.at);
      next.wake();
    }
    return work;
  }
}
