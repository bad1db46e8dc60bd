// When to restart a process that exited: backoff that grows while it keeps failing, and a budget of
// restarts over a sliding window. An exhausted budget means a cool-down, then more tries: nothing is ever
// given up for good (the old lifetime count of 5 stopped the whole app after the sixth exit, even hours apart).

export interface RestartPolicy {
  /** Restarts allowed inside `windowMs` before a cool-down. */
  maxRestarts: number;
  windowMs: number;
  /** First delay; doubles with each quick exit in a row, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Wait when the budget is spent. */
  coolDownMs: number;
  /** A process that ran this long was healthy: its exit starts the backoff again from `baseDelayMs`. */
  stableAfterMs: number;
}

export const DEFAULT_POLICY: RestartPolicy = {
  maxRestarts: 5,
  windowMs: 5 * 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  coolDownMs: 2 * 60_000,
  stableAfterMs: 60_000,
};

export interface RestartState {
  /** When the restarts inside the window happened (ms). */
  recent: number[];
  /** Quick exits in a row (uptime below `stableAfterMs`). */
  streak: number;
}

export const initialState = (): RestartState => ({ recent: [], streak: 0 });

export interface RestartPlan {
  state: RestartState;
  delayMs: number;
  /** True when the budget was spent and this delay is the cool-down. */
  coolingDown: boolean;
  /** Restarts inside the window, this one included. */
  inWindow: number;
}

/** Plans the restart of a process that exited at `now` after running `uptimeMs`. */
export function planRestart(
  state: RestartState,
  exit: { now: number; uptimeMs: number },
  policy: RestartPolicy = DEFAULT_POLICY,
): RestartPlan {
  const streak = exit.uptimeMs >= policy.stableAfterMs ? 0 : state.streak + 1;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, streak - 1));
  const recent = state.recent.filter((t) => t > exit.now - policy.windowMs);
  const coolingDown = recent.length >= policy.maxRestarts;
  const delayMs = coolingDown ? Math.max(backoff, policy.coolDownMs) : backoff;
  // The restart happens when the delay ends: that is when it uses the budget.
  const next = [...recent, exit.now + delayMs];
  return { state: { recent: next, streak }, delayMs, coolingDown, inWindow: next.length };
}

/** The launcher's policy: RESTART_BUDGET ("5/300": at most 5 restarts in 300 s) and
 * RESTART_COOLDOWN_SECONDS over the defaults. A bad value is refused with the variable's name. */
export function policyFromEnv(
  env: Record<string, string | undefined>,
  base: RestartPolicy = DEFAULT_POLICY,
): RestartPolicy {
  const policy = { ...base };
  const budget = env.RESTART_BUDGET;
  if (budget !== undefined && budget.trim() !== '') {
    const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(budget);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      throw new Error(`RESTART_BUDGET must look like "5/300" (at most 5 restarts in 300 s), got "${budget}"`);
    }
    policy.maxRestarts = Number(match[1]);
    policy.windowMs = Number(match[2]) * 1000;
  }
  const coolDown = env.RESTART_COOLDOWN_SECONDS;
  if (coolDown !== undefined && coolDown.trim() !== '') {
    if (!/^\s*\d+\s*$/.test(coolDown)) {
      throw new Error(`RESTART_COOLDOWN_SECONDS must be a whole number of seconds, got "${coolDown}"`);
    }
    policy.coolDownMs = Number(coolDown) * 1000;
  }
  return policy;
}
