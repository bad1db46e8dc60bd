// `npm run user` as scripts and CI use it: a real process against the test database (DATABASE_URL).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { passwordHashOf, sessionUser, tokenUser } from '@/lib/auth/data';
import { createApiToken, createSession, createUser } from '@/lib/auth/mutations';
import { sha256, verifyPassword } from '@/lib/auth/secrets';
import { SERVER_NODE_ARGS } from './node-args';

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, 'user.ts');

function user(args: string[], input?: string) {
  const child = run(process.execPath, [...SERVER_NODE_ARGS, script, ...args], { env: process.env });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  return child;
}

// Each test spawns the script several times over users of its own: the tests run at once.
describe('npm run user', { concurrent: true }, () => {
  it('creates a user from a password on stdin and prints a working token alone on the last line', async () => {
    const email = `cli-${randomUUID()}@test.example`;
    const created = await user(
      ['create', '--email', email, '--role', 'reviewer', '--password-stdin'],
      'a long enough password\n',
    );
    expect(created.stdout).toContain(`created reviewer ${email}`);

    const { stdout } = await user(['token', '--email', email, '--name', 'ci']);
    const last = stdout.trim().split('\n').at(-1) as string;
    expect(last).toMatch(/^sat_[\w-]{43}$/);
    const found = await tokenUser(sha256(last));
    expect(found?.user).toMatchObject({ email, role: 'reviewer' });
  });

  it('explains what is wrong: a short password, an unknown role, an existing email, an unknown user', async () => {
    const email = `cli-${randomUUID()}@test.example`;
    const failure = async (promise: Promise<unknown>) => {
      const error = (await promise.then(
        () => null,
        (e: unknown) => e,
      )) as { code: number; stderr: string } | null;
      expect(error?.code).toBe(2);
      return error?.stderr ?? '';
    };
    expect(
      await failure(user(['create', '--email', email, '--role', 'viewer', '--password-stdin'], 'short\n')),
    ).toContain('at least 10 characters');
    expect(
      await failure(user(['create', '--email', email, '--role', 'boss', '--password-stdin'], 'x'.repeat(12))),
    ).toContain('--role must be admin, reviewer or viewer');
    await user(
      ['create', '--email', email, '--role', 'viewer', '--password-stdin'],
      'a long enough password',
    );
    expect(
      await failure(
        user(['create', '--email', email, '--role', 'viewer', '--password-stdin'], 'a long enough password'),
      ),
    ).toContain('exists');
    expect(await failure(user(['token', '--email', `nobody-${randomUUID()}@test.example`]))).toContain(
      'No active user',
    );
  });

  it('resets a password like an admin does: sessions end, tokens revoked unless --keep-tokens', async () => {
    const email = `cli-${randomUUID()}@test.example`;
    const created = await createUser({
      email,
      name: 'Cli',
      role: 'admin',
      password: 'a long enough password',
    });
    const first = await createApiToken(created.id, 'first');
    const session = await createSession(created.id, null, null);
    const reset = await user(['password', '--email', email, '--password-stdin'], 'a second password!\n');
    expect(reset.stdout).toContain(
      `new password set for ${email}; signed out everywhere; API tokens revoked`,
    );
    expect(await tokenUser(sha256(first.token))).toBeNull();
    expect(await sessionUser(sha256(session.token))).toBeNull();
    expect(await verifyPassword(await passwordHashOf(created.id), 'a second password!')).toBe(true);

    const second = await createApiToken(created.id, 'second');
    await user(['password', '--email', email, '--password-stdin', '--keep-tokens'], 'a third password!!\n');
    expect((await tokenUser(sha256(second.token)))?.user.email).toBe(email);
    expect(await verifyPassword(await passwordHashOf(created.id), 'a third password!!')).toBe(true);
  });
});
