// Locates the shared real-world fixture corpus (../shared/fixtures beside the repository).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export const fixturesDir = process.env.FIXTURES_DIR ?? path.resolve(repoRoot, '..', 'shared', 'fixtures');

if (!existsSync(fixturesDir)) {
  throw new Error(`Fixture corpus not found at ${fixturesDir}; set FIXTURES_DIR to its location.`);
}

/** Absolute path of a fixture, given its path relative to the corpus root (as in MANIFEST.md). */
export function fixturePath(relative: string): string {
  return path.join(fixturesDir, relative);
}

export function readFixture(relative: string): Buffer {
  return readFileSync(fixturePath(relative));
}
