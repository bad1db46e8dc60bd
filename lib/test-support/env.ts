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

/** The suite's database as this test worker sees it: its own copy (lib/db/test-setup.ts), as the owner
 * (migrations, CREATE DATABASE), the web role and the worker role. */
export function testDatabaseUrls(): { owner: string; web: string; worker: string } {
  const read = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is set by lib/db/test-setup.ts for integration tests only`);
    return value;
  };
  return {
    owner: read('TEST_OWNER_DATABASE_URL'),
    web: read('TEST_WEB_DATABASE_URL'),
    worker: read('TEST_WORKER_DATABASE_URL'),
  };
}
