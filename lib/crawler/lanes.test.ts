import { describe, expect, it } from 'vitest';
import { FakeClock } from '@/lib/test-support/fake-clock';
import { HostLanes, type RequestOutcome } from './lanes';

const ok = (url = 'https://h.test/x'): RequestOutcome => ({
  url,
  status: 200,
  retryAfterMs: null,
  error: null,
});
const answer = (status: number, retryAfterMs: number | null = null): RequestOutcome => ({
  url: 'https://h.test/x',
  status,
  retryAfterMs,
  error: null,
});
const timeout: RequestOutcome = {
  url: 'https://h.test/slow',
  status: null,
  retryAfterMs: null,
  error: { code: 'timeout', message: 'https://h.test/slow timed out after 15 s' },
};

/** Runs `count` requests of `durationMs` each on `host`, recording when each started and how many ran at once. */
async function requests(lanes: HostLanes, clock: FakeClock, host: string, count: number, durationMs: number) {
  const starts: number[] = [];
  let active = 0;
  let most = 0;
  await clock.run(
    Promise.all(
      Array.from({ length: count }, async () => {
        const slot = await lanes.acquire(host);
        if (!slot || 'refused' in slot) throw new Error('no slot');
        starts.push(clock.now());
        most = Math.max(most, ++active);
        await clock.sleep(durationMs);
        active--;
        slot.release(ok());
      }),
    ),
  );
  return { starts, most };
}

describe('HostLanes', () => {
  it('never has more than concurrencyPerHost requests in flight on a host, and hosts do not share slots', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 2, clock });
    const [a, b] = await Promise.all([
      requests(lanes, clock, 'a.test', 10, 100),
      requests(lanes, clock, 'b.test:8080', 10, 100),
    ]);
    expect(a.most).toBe(2);
    expect(b.most).toBe(2);
    // Two at a time, 100 ms each: ten requests take five rounds.
    expect(Math.max(...a.starts)).toBe(400);
    expect(clock.now()).toBe(500);
  });

  it('spaces request starts by the Crawl-delay, one request at a time', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 4, clock });
    lanes.setCrawlDelay('h.test', 1_500);
    const { starts, most } = await requests(lanes, clock, 'h.test', 5, 10);
    expect(most).toBe(1);
    expect(starts).toEqual([0, 1_500, 3_000, 4_500, 6_000]);
  });

  it('pauses the host for its Retry-After after a 429, then goes on', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 1, clock });
    const first = await lanes.acquire('h.test');
    if (!first || 'refused' in first) throw new Error('no slot');
    clock.time = 10;
    expect(first.release(answer(429, 5_000))).toEqual({ stop: null, message: null });
    const next = await clock.run(lanes.acquire('h.test'));
    expect(next && !('refused' in next)).toBe(true);
    expect(clock.now()).toBe(5_010);
  });

  it('pauses for the fallback when a 503 gives no Retry-After', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 1, clock, fallbackPauseMs: 2_000 });
    const first = await lanes.acquire('h.test');
    if (!first || 'refused' in first) throw new Error('no slot');
    first.release(answer(503));
    await clock.run(lanes.acquire('h.test'));
    expect(clock.now()).toBe(2_000);
  });

  it('gives a host up when it asks for a longer wait than the crawl allows, refusing its waiters', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 1, clock });
    const first = await lanes.acquire('h.test');
    if (!first || 'refused' in first) throw new Error('no slot');
    const waiting = lanes.acquire('h.test');
    const verdict = first.release(answer(429, 120_000));
    expect(verdict.stop).toBe('host_refused');
    expect(verdict.message).toContain('Retry-After 120 s, longer than the 60 s a crawl waits');
    expect(await waiting).toMatchObject({ refused: 'host_refused' });
    expect(await lanes.acquire('h.test')).toMatchObject({ refused: 'host_refused' });
    expect(lanes.refusedHost('h.test')).toContain('h.test');
    // Another host is not affected.
    expect(await lanes.acquire('other.test')).toHaveProperty('release');
    expect(clock.now()).toBe(0);
  });

  it('gives a host up after 5 refusals in a row; an answer between them starts the count again', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 1, clock });
    const once = async (outcome: RequestOutcome) => {
      const slot = await clock.run(lanes.acquire('h.test'));
      if (!slot || 'refused' in slot) throw new Error(`refused: ${JSON.stringify(slot)}`);
      return slot.release(outcome);
    };
    for (let i = 0; i < 4; i++) expect((await once(answer(429, 1_000))).stop).toBeNull();
    expect((await once(ok())).stop).toBeNull();
    for (let i = 0; i < 4; i++) expect((await once(answer(503, 1_000))).stop).toBeNull();
    const fifth = await once(answer(429, 1_000));
    expect(fifth.stop).toBe('host_refused');
    expect(fifth.message).toContain('answered 429 or 503 to 5 requests in a row');
    // Four pauses, one answer, four pauses: the 1 s waits were each waited out.
    expect(clock.now()).toBe(8_000);
  });

  it('trips the safeguard when 80 % of the last 50 requests failed, saying what failed', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 8, clock });
    const once = async (outcome: RequestOutcome) => {
      const slot = await lanes.acquire('h.test');
      if (!slot || 'refused' in slot) throw new Error('refused');
      return slot.release(outcome);
    };
    // 50 good answers, then failures: the window slides, so the 40th failure (40 of 50) trips it.
    for (let i = 0; i < 50; i++) await once(ok());
    for (let i = 0; i < 39; i++) {
      const verdict = await once(i % 3 === 0 ? answer(500) : timeout);
      expect(verdict.stop, `failure ${i + 1}`).toBeNull();
    }
    const tripped = await once(timeout);
    expect(tripped.stop).toBe('failing');
    expect(tripped.message).toMatch(
      /^The crawl stopped: 40 of its last 50 requests failed \(27 timeout, 13 HTTP 500\)/,
    );
    expect(tripped.message).toContain('https://h.test/slow timed out');
    expect(lanes.failing).toBe(tripped.message);
    expect(await lanes.acquire('other.test')).toMatchObject({ refused: 'failing' });
  });

  it('does not trip on a mostly failing start shorter than the window, nor on 4xx answers', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 8, clock });
    for (let i = 0; i < 49; i++) {
      const slot = await lanes.acquire('h.test');
      if (!slot || 'refused' in slot) throw new Error('refused');
      expect(slot.release(timeout).stop).toBeNull();
    }
    const fresh = new HostLanes({ concurrencyPerHost: 8, clock });
    for (let i = 0; i < 100; i++) {
      const slot = await fresh.acquire('h.test');
      if (!slot || 'refused' in slot) throw new Error('refused');
      expect(slot.release(answer(404)).stop).toBeNull();
    }
  });

  it('ends a wait with null when its signal aborts, and frees nothing it did not take', async () => {
    const clock = new FakeClock();
    const lanes = new HostLanes({ concurrencyPerHost: 1, clock });
    const held = await lanes.acquire('h.test');
    const controller = new AbortController();
    const waiting = lanes.acquire('h.test', controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
    if (!held || 'refused' in held) throw new Error('no slot');
    held.release(ok());
    held.release(ok());
    // The double release did not add a slot: one in flight again means the next waits.
    const one = await lanes.acquire('h.test');
    let second = false;
    void lanes.acquire('h.test').then(() => {
      second = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(one).toHaveProperty('release');
    expect(second).toBe(false);
  });
});
