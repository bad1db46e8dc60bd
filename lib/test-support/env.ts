// Test helper for settings read from the environment.

/** Runs `fn` with `env` set, then removes those variables again. */
export async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
  }
}
