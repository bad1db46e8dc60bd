// `npm run web` is the web server alone against the shared database: without DATABASE_URL it must stop at
// once and say so (an embedded database on a web-only machine would be a second, private database).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from './node-args';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

describe('npm run web', () => {
  it('refuses to start without DATABASE_URL, naming it and npm start', async () => {
    const { DATABASE_URL: _url, ...env } = process.env;
    const failed = await run(process.execPath, [...SERVER_NODE_ARGS, path.join(root, 'scripts/web.ts')], {
      cwd: root,
      env: { ...env, DATABASE_URL: '' },
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/npm run web needs the shared database: set DATABASE_URL/);
    expect(failed?.stderr).toMatch(/use npm start/);
  }, 30_000);
});
