import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isRetryableStatus, isTransientError, parseRetryAfter, retryDelay, sleep } from './retry-policy';
import { rejectionOf } from './test-server';
import { NetError } from './types';

describe('isRetryableStatus', () => {
  it.each([
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [599, true],
    [200, false],
    [304, false],
    [400, false],
    [404, false],
    [410, false],
  ])('%i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('isTransientError', () => {
  const netError = (code: NetError['code'], causeCode?: string) =>
    new NetError(code, 'http://x/', 'msg', { cause: causeCode ? { code: causeCode } : undefined });

  it.each([
    [netError('timeout'), true],
    [netError('connect_failed', 'ECONNRESET'), true],
    [netError('connect_failed', 'ECONNREFUSED'), true],
    [netError('dns_failed', 'EAI_AGAIN'), true],
    [netError('dns_failed', 'ENOTFOUND'), false],
    [netError('connect_failed', 'HPE_INVALID_CONSTANT'), false],
    [netError('tls_error', 'ECONNRESET'), false],
    [netError('blocked_address'), false],
    [new Error('plain'), false],
  ])('%#', (err, expected) => {
    expect(isTransientError(err)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
  });

  it('reads an HTTP date, and a past one means now', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('uses full jitter under an exponential ceiling', () => {
    const opts = { baseMs: 500, capMs: 60_000 };
    expect(retryDelay(1, opts, () => 0.999)).toBe(499);
    expect(retryDelay(3, opts, () => 0.5)).toBe(1000);
    expect(retryDelay(3, opts, () => 0)).toBe(0);
    expect(retryDelay(20, opts, () => 0.5)).toBe(30_000);
  });

  it('follows Retry-After, capped', () => {
    expect(retryDelay(1, { baseMs: 500, capMs: 60_000, retryAfterMs: 2000 }, () => 0)).toBe(2000);
    expect(retryDelay(1, { baseMs: 500, capMs: 60_000, retryAfterMs: 3_600_000 })).toBe(60_000);
  });
});

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once the time has passed, not before', async () => {
    let done = false;
    const waiting = sleep(10_000, undefined, () => new Error('stopped')).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('rejects with the given error as soon as the signal aborts, and clears its timer', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal, () => new Error('stopped'));
    controller.abort();
    expect(await rejectionOf(pending)).toEqual(new Error('stopped'));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await rejectionOf(sleep(10_000, controller.signal, () => new Error('stopped')))).toEqual(
      new Error('stopped'),
    );
    expect(vi.getTimerCount()).toBe(0);
  });
});
