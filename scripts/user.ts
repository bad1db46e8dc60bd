// `npm run user -- …`: accounts for scripts and CI, against the same database as `npm start`
// (DATABASE_URL, or the embedded server of DATA_DIR, started for the command if it is not running).
//
//   npm run user -- create --email a@b.c --role admin|reviewer|viewer [--name "Ana"] --password-stdin
//   npm run user -- token --email a@b.c [--name ci]     prints a new API token, alone on the last line
//   npm run user -- password --email a@b.c --password-stdin [--keep-tokens]   a reset, as an admin's
//   npm run user -- list
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { listUsers, userForLogin } from '@/lib/auth/data';
import { createApiToken, createUser, updateUser } from '@/lib/auth/mutations';
import { isRole } from '@/lib/auth/roles';
import { ZEmail, ZPassword } from '@/lib/auth/schema';
import { AppError } from '@/lib/core/errors';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { closeDb } from '@/lib/db/client';

const USAGE = `Usage:
  npm run user -- create --email <email> --role <admin|reviewer|viewer> [--name <name>] --password-stdin
  npm run user -- token --email <email> [--name <token name>]
  npm run user -- password --email <email> --password-stdin [--keep-tokens]
  npm run user -- list`;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new Error('--password-stdin reads the password from standard input (pipe it in)');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline (from echo or a file) is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'keep-tokens': { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (!command || !['create', 'token', 'password', 'list'].includes(command)) fail(USAGE);
  const email = values.email === undefined ? undefined : ZEmail.parse(values.email);
  if (command !== 'list' && !email) fail(`--email is required\n${USAGE}`);

  let password = '';
  if (command === 'create' || command === 'password') {
    if (command === 'create' && !isRole(values.role))
      fail(`--role must be admin, reviewer or viewer\n${USAGE}`);
    if (!values['password-stdin'])
      fail(`give the password on standard input with --password-stdin\n${USAGE}`);
    password = ZPassword.parse(await readStdin());
  }

  const database = await ensureDatabase((m) => console.error(`[db] ${m}`));
  try {
    if (command === 'create') {
      const user = await createUser({
        email: email as string,
        name: values.name?.trim() || (email as string).split('@')[0] || (email as string),
        role: values.role as 'admin' | 'reviewer' | 'viewer',
        password,
      });
      console.log(`created ${user.role} ${user.email} (${user.id})`);
    } else if (command === 'password') {
      // The way back in for an admin who forgot their password; the same reset as on the users screen:
      // sessions end, API tokens are revoked unless --keep-tokens.
      const user = await userForLogin(email as string);
      if (!user) throw new AppError('not_found', `No active user with the email ${email}`);
      const revokeTokens = !values['keep-tokens'];
      await updateUser(user.id, { password, revokeTokens });
      console.log(
        `new password set for ${user.email}; signed out everywhere; API tokens ${revokeTokens ? 'revoked' : 'kept'}`,
      );
    } else if (command === 'token') {
      const user = await userForLogin(email as string);
      if (!user) throw new AppError('not_found', `No active user with the email ${email}`);
      const token = await createApiToken(user.id, values.name?.trim() || 'command line');
      console.log(`API token "${token.name}" for ${user.email}; it is shown once, store it now:`);
      console.log(token.token);
    } else {
      for (const u of await listUsers()) {
        console.log(`${u.email}\t${u.role}\t${u.name}${u.disabledAt ? '\tdisabled' : ''}`);
      }
    }
  } finally {
    await closeDb();
    await database.stop();
  }
}

main().catch((error) => {
  if (error instanceof ZodError) fail(error.issues.map((i) => i.message).join('; '));
  if (error instanceof AppError) fail(error.message);
  console.error(error);
  process.exit(1);
});
