// `npm test`: the whole suite, in the order that fails fastest: typecheck, lint, unit + integration
// (Vitest, against a real embedded Postgres), a production build, then Playwright end-to-end in Chromium.
// Ends with one summary line "N passed, N failed" over every test that ran.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const only = process.argv.slice(2);

const steps = [
  { name: 'typecheck', cmd: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', cmd: bin('biome'), args: ['check', '.'] },
  {
    name: 'vitest',
    cmd: bin('vitest'),
    args: [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(reports, 'vitest.json')}`,
    ],
  },
  {
    name: 'build',
    cmd: process.execPath,
    args: [path.join(root, 'node_modules/next/dist/bin/next'), 'build'],
  },
  // A fresh data directory, so the first-run setup is exercised every time.
  { name: 'e2e', cmd: bin('playwright'), args: ['test'], fresh: path.join(root, 'test-results', 'e2e-data') },
];

let passed = 0;
let failed = 0;
let broken = null;
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  console.log(`\n── ${step.name} ──`);
  const started = Date.now();
  const env = { NEXT_TELEMETRY_DISABLED: '1', ...process.env };
  if (step.fresh) {
    rmSync(step.fresh, { recursive: true, force: true });
    // As root, a data directory the postgres user cannot traverse keeps its cluster elsewhere, named by
    // the directory's path (lib/db/embedded.ts): a fresh directory needs a fresh cluster too, or a second
    // run in the same checkout finds the old cluster without its password.
    if (process.getuid?.() === 0) {
      const digest = createHash('sha256').update(step.fresh).digest('hex').slice(0, 16);
      rmSync(path.join('/var/lib/sitemap-audit/clusters', digest), { recursive: true, force: true });
    }
  }
  const result = spawnSync(step.cmd, step.args, { cwd: root, stdio: 'inherit', env });
  console.log(
    `── ${step.name}: ${result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (result.status !== 0) {
    broken = step.name;
    break;
  }
}

function count(file, read) {
  if (!existsSync(file)) return;
  try {
    const [p, f] = read(JSON.parse(readFileSync(file, 'utf8')));
    passed += p;
    failed += f;
  } catch (error) {
    console.error(`could not read ${file}: ${error.message}`);
  }
}
count(path.join(reports, 'vitest.json'), (r) => [r.numPassedTests, r.numFailedTests]);
count(path.join(reports, 'playwright.json'), (r) => [
  r.stats.expected + (r.stats.flaky ?? 0),
  r.stats.unexpected,
]);
printSlowest(10);
if (broken && failed === 0) failed = 1; // a step that failed outside any test (typecheck, lint, build)
console.log(broken ? `\nstep "${broken}" failed` : '\nall steps passed');
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken ? 1 : 0);

/** The slowest tests of both runners, so a slow one is seen the day it arrives (CI time is paid at every
 * push). Reads the same JSON reports as the count above; a missing report adds nothing. */
function printSlowest(howMany) {
  const timed = [];
  const read = (file) => {
    try {
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    } catch {
      return null;
    }
  };
  const vitest = read(path.join(reports, 'vitest.json'));
  for (const file of vitest?.testResults ?? []) {
    const where = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      timed.push({ ms: test.duration ?? 0, name: `${where} › ${test.fullName ?? test.title}` });
    }
  }
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
        timed.push({ ms, name: `e2e/${spec.file ?? file} › ${spec.title}` });
      }
    }
    for (const inner of suite.suites ?? []) walk(inner, suite.file ?? file);
  };
  for (const suite of read(path.join(reports, 'playwright.json'))?.suites ?? []) walk(suite, suite.file);
  if (timed.length === 0) return;
  timed.sort((a, b) => b.ms - a.ms);
  console.log(`\nthe ${Math.min(howMany, timed.length)} slowest tests:`);
  for (const { ms, name } of timed.slice(0, howMany)) {
    console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
  }
}
