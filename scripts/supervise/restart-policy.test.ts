// The restart budget is a sliding window, not a lifetime count; backoff grows with quick exits only.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  initialState,
  planRestart,
  policyFromEnv,
  type RestartPolicy,
} from './restart-policy';

const policy: RestartPolicy = {
  maxRestarts: 3,
  windowMs: 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  coolDownMs: 30_000,
  stableAfterMs: 10_000,
};

/** Exits at the given times (ms), each after `uptimeMs`, and the plans made for them. */
function exits(times: number[], uptimeMs = 100) {
  let state = initialState();
  return times.map((now) => {
    const plan = planRestart(state, { now, uptimeMs }, policy);
    state = plan.state;
    return plan;
  });
}

describe('planRestart', () => {
  it('doubles the delay while the process keeps exiting quickly, up to the maximum', () => {
    const plans = exits([0, 2_000, 5_000, 100_000, 200_000, 300_000, 400_000]);
    expect(plans.map((p) => p.delayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
  });

  it('starts the backoff again after a run that lasted', () => {
    let state = initialState();
    for (const now of [0, 2_000, 5_000]) state = planRestart(state, { now, uptimeMs: 100 }, policy).state;
    const plan = planRestart(state, { now: 90_000, uptimeMs: 60_000 }, policy);
    expect(plan.delayMs).toBe(1_000);
    expect(plan.state.streak).toBe(0);
  });

  it('cools down when the window holds the budget, and tries again after the cool-down', () => {
    const plans = exits([0, 1_100, 3_200, 7_300]);
    expect(plans.map((p) => p.coolingDown)).toEqual([false, false, false, true]);
    const cooled = plans[3];
    if (!cooled) throw new Error('four plans expected');
    expect(cooled.delayMs).toBe(30_000);
    // Never gives up: the exit after the cool-down is planned too.
    const after = planRestart(cooled.state, { now: 37_400, uptimeMs: 100 }, policy);
    expect(after.delayMs).toBeGreaterThan(0);
  });

  it('forgets restarts that left the window, however many there were over the lifetime', () => {
    // One exit a minute for an hour: the old launcher stopped the app at the sixth.
    const plans = exits(
      Array.from({ length: 60 }, (_, i) => i * 61_000),
      61_000,
    );
    expect(plans.every((p) => !p.coolingDown)).toBe(true);
    expect(plans.every((p) => p.delayMs === 1_000)).toBe(true);
    expect(plans.at(-1)?.inWindow).toBe(1);
  });

  it('counts a restart when it happens (after its delay), so a cool-down uses the budget too', () => {
    const plans = exits([0]);
    expect(plans[0]?.state.recent).toEqual([1_000]);
  });
});

describe('policyFromEnv', () => {
  it('reads RESTART_BUDGET and RESTART_COOLDOWN_SECONDS over the defaults', () => {
    expect(policyFromEnv({ RESTART_BUDGET: '10/600', RESTART_COOLDOWN_SECONDS: '30' })).toEqual({
      ...DEFAULT_POLICY,
      maxRestarts: 10,
      windowMs: 600_000,
      coolDownMs: 30_000,
    });
    expect(policyFromEnv({})).toEqual(DEFAULT_POLICY);
  });

  it('refuses malformed values, naming the variable', () => {
    expect(() => policyFromEnv({ RESTART_BUDGET: '5' })).toThrow(/RESTART_BUDGET must look like "5\/300"/);
    expect(() => policyFromEnv({ RESTART_BUDGET: '0/60' })).toThrow(/RESTART_BUDGET/);
    expect(() => policyFromEnv({ RESTART_COOLDOWN_SECONDS: '-1' })).toThrow(/RESTART_COOLDOWN_SECONDS/);
  });
});
