// The delivery backoff (30 s, 2 min, 10 min, 30 min, 2 h at the default base), the delivery budgets and the
// scheduler's monitor interval, read from the environment and refused when they make no sense.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schedulerMonitorSeconds } from '@/lib/queue/queue';
import {
  deliveryConcurrency,
  deliveryTimeoutMs,
  maxPendingDeliveries,
  PER_WEBHOOK_IN_FLIGHT,
  pauseAfterFailures,
  readDeliverySettings,
} from '@/lib/sites/webhooks/settings';
import { MAX_DELIVERY_ATTEMPTS, nextAttemptAt, retryBaseSeconds } from './webhook-delivery';

afterEach(() => {
  vi.unstubAllEnvs();
});

const at = new Date('2026-12-01T03:00:00Z');
const waits = () =>
  Array.from(
    { length: MAX_DELIVERY_ATTEMPTS - 1 },
    (_, i) => (nextAttemptAt(i + 1, at).getTime() - at.getTime()) / 1000,
  );

describe('the webhook backoff', () => {
  it('waits 30 s, 2 min, 10 min, 30 min and 2 h between 6 attempts by default', () => {
    vi.stubEnv('WEBHOOK_RETRY_BASE_SECONDS', '');
    expect(MAX_DELIVERY_ATTEMPTS).toBe(6);
    expect(waits()).toEqual([30, 120, 600, 1800, 7200]);
  });

  it('scales with WEBHOOK_RETRY_BASE_SECONDS, and refuses a base that is not a positive number', () => {
    vi.stubEnv('WEBHOOK_RETRY_BASE_SECONDS', '0.2');
    expect(waits().map((s) => Math.round(s * 1000))).toEqual([200, 800, 4000, 12000, 48000]);
    for (const bad of ['0', '-1', 'soon']) {
      vi.stubEnv('WEBHOOK_RETRY_BASE_SECONDS', bad);
      expect(() => retryBaseSeconds()).toThrow(/WEBHOOK_RETRY_BASE_SECONDS must be a positive number/);
    }
  });
});

describe('SCHEDULER_MONITOR_SECONDS', () => {
  it('is 30 by default and a whole number from 1 to 45', () => {
    vi.stubEnv('SCHEDULER_MONITOR_SECONDS', '');
    expect(schedulerMonitorSeconds()).toBe(30);
    vi.stubEnv('SCHEDULER_MONITOR_SECONDS', '1');
    expect(schedulerMonitorSeconds()).toBe(1);
    for (const bad of ['0', '46', '1.5', 'fast']) {
      vi.stubEnv('SCHEDULER_MONITOR_SECONDS', bad);
      expect(() => schedulerMonitorSeconds()).toThrow(/from 1 to 45/);
    }
  });
});

describe('the webhook budgets', () => {
  it('default to 8 in flight, 10 s, a pause after 10 failures and 50 pending', () => {
    for (const name of [
      'WEBHOOK_CONCURRENCY',
      'WEBHOOK_TIMEOUT_SECONDS',
      'WEBHOOK_PAUSE_AFTER_FAILURES',
      'WEBHOOK_MAX_PENDING',
    ]) {
      vi.stubEnv(name, '');
    }
    expect([
      deliveryConcurrency(),
      deliveryTimeoutMs(),
      pauseAfterFailures(),
      maxPendingDeliveries(),
    ]).toEqual([8, 10_000, 10, 50]);
    expect(PER_WEBHOOK_IN_FLIGHT).toBe(1);
  });

  it('are read from the environment, and a value that makes no sense stops the worker at its start', () => {
    vi.stubEnv('WEBHOOK_TIMEOUT_SECONDS', '2');
    expect(deliveryTimeoutMs()).toBe(2000);
    for (const bad of ['0', '-3', '1.5', 'many']) {
      vi.stubEnv('WEBHOOK_MAX_PENDING', bad);
      expect(() => readDeliverySettings()).toThrow(
        /WEBHOOK_MAX_PENDING must be a whole number from 1 to 10000/,
      );
    }
  });
});
