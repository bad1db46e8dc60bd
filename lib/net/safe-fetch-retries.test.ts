import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sleep } from './retry-policy';
import { safeFetch } from './safe-fetch';
import { readAll, rejectionOf, startTestServer, type TestServer } from './test-server';
import { NetError, type SafeFetchOptions } from './types';

// The waits between attempts are recorded, not slept: the backoff is asserted without the clock.
let waits: number[] = [];
beforeEach(() => {
  waits = [];
});
const local: SafeFetchOptions = {
  allowPrivateNetwork: true,
  timeoutMs: 2000,
  testHooks: {
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  },
};

let server: TestServer;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const path = req.url ?? '/';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    if (path === '/busy-once') {
      if (n === 1) res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      else res.end('ok');
    } else if (path === '/flaky') {
      if (n <= 3) res.writeHead(503).end('unavailable');
      else res.end('recovered');
    } else if (path === '/down') res.writeHead(503, { 'content-type': 'text/plain' }).end('still down');
    else if (path === '/gone') res.writeHead(404).end('nope');
    else if (path === '/reset-once') {
      if (n === 1) req.socket.destroy();
      else res.end('after reset');
    } else if (path === '/silent') {
      // Never answers: the client's own timeouts must end this.
    } else res.end('ok');
  });
});

afterAll(async () => {
  await server.close();
});

async function netError(promise: Promise<unknown>): Promise<NetError> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

describe('safeFetch retries', () => {
  it('waits for Retry-After on 429, then returns the success', async () => {
    const res = await safeFetch(`${server.origin}/busy-once`, local);
    expect(waits).toEqual([1000]);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect((await readAll(res.body)).toString()).toBe('ok');
  });

  it('retries 503 three times with exponential backoff, then returns the 200', async () => {
    const res = await safeFetch(`${server.origin}/flaky`, local);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(4);
    expect(hits.get('/flaky')).toBe(4);
    // Full jitter (here half) of 500 ms doubling per attempt.
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('never waits longer than maxRetryAfterMs, whatever the backoff or Retry-After ask', async () => {
    await safeFetch(`${server.origin}/down`, {
      ...local,
      retries: 4,
      retryBaseMs: 1000,
      maxRetryAfterMs: 3000,
    });
    expect(waits).toEqual([500, 1000, 1500, 1500]);
    hits.delete('/busy-once');
    await safeFetch(`${server.origin}/busy-once`, { ...local, maxRetryAfterMs: 300 });
    expect(waits.at(-1)).toBe(300);
  });

  it('returns the last 503 (not an error) after retries + 1 attempts, body intact', async () => {
    const res = await safeFetch(`${server.origin}/down`, { ...local, retries: 2 });
    expect(res.status).toBe(503);
    expect(res.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect((await readAll(res.body)).toString()).toBe('still down');
    // The discarded attempts' sockets are closed, not leaked.
    await expect.poll(() => server.openConnections(), { timeout: 1000, interval: 10 }).toBe(0);
  });

  it('returns other 4xx at once, without retrying', async () => {
    const res = await safeFetch(`${server.origin}/gone`, local);
    expect([res.status, res.attempts, hits.get('/gone')]).toEqual([404, 1, 1]);
    expect(waits).toEqual([]);
    res.body.destroy();
  });

  it('retries a connection reset', async () => {
    const res = await safeFetch(`${server.origin}/reset-once`, local);
    expect([res.status, res.attempts]).toEqual([200, 2]);
    res.body.destroy();
  });

  it('gives up on a refused connection with connect_failed and the attempt count', async () => {
    const gone = await startTestServer(() => {});
    await gone.close();
    const err = await netError(safeFetch(`${gone.origin}/`, { ...local, retries: 2 }));
    expect(err.code).toBe('connect_failed');
    expect(err.attempts).toBe(3);
    expect(err.message).toContain('(3 attempts)');
  });

  it('times out when headers never come, retrying first', async () => {
    const err = await netError(
      safeFetch(`${server.origin}/silent`, { ...local, timeoutMs: 1000, idleTimeoutMs: 100, retries: 1 }),
    );
    expect(err.code).toBe('timeout');
    expect(err.attempts).toBe(2);
    // The idle timeout ended both attempts, not the 1000 ms deadline.
    expect(err.message).toBe(`${server.origin}/silent sent nothing for 100 ms (2 attempts)`);
  });

  it('uses the overall deadline when it is shorter than the idle timeout would allow', async () => {
    const err = await netError(
      safeFetch(`${server.origin}/silent`, { ...local, timeoutMs: 120, idleTimeoutMs: 5000, retries: 0 }),
    );
    expect(err.code).toBe('timeout');
    expect(err.message).toBe(`${server.origin}/silent timed out after 120 ms`);
  });

  it('stops waiting between attempts when aborted, and tries no more', async () => {
    const controller = new AbortController();
    hits.delete('/down');
    const err = await netError(
      safeFetch(`${server.origin}/down`, {
        ...local,
        signal: controller.signal,
        // The caller gives up during the first wait; the real sleep then rejects.
        testHooks: {
          sleep: (ms, signal, onAbort) => {
            waits.push(ms);
            controller.abort();
            return sleep(ms, signal, onAbort);
          },
        },
      }),
    );
    expect(err.code).toBe('aborted');
    expect(err.attempts).toBe(1);
    expect(waits).toHaveLength(1);
    expect(hits.get('/down')).toBe(1);
  });
});
