// The production build of the dashboard that `npm start` and `npm run web` serve with `next start`: made
// when missing or older than the sources, so a changed checkout is never served stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'generated') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(tsx?|css|json|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the dashboard (`next build`) when `.next` is missing or older than the sources (FORCE_BUILD=1:
 * always). */
export function buildIfNeeded(log: (message: string) => void): void {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const sources = ['app', 'components', 'lib', 'public'].map((d) => path.join(root, d)).filter(existsSync);
  const newest = Math.max(
    ...sources.map(newestSource),
    statSync(path.join(root, 'package.json')).mtimeMs,
    statSync(path.join(root, 'next.config.ts')).mtimeMs,
  );
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newest && process.env.FORCE_BUILD !== '1') return;
  log('building the dashboard (first start or changed sources; takes a minute)…');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { NEXT_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (result.status !== 0) throw new Error('next build failed; see the output above');
}
