// `npm test`: the whole suite, in the order that fails fastest: typecheck, lint, unit + integration
// (Vitest, against a real embedded Postgres) with the production build beside it, then Playwright
// end-to-end in Chromium. The build needs none of Vitest's results, so it runs while Vitest does (its
// output kept in test-results/build.log and printed when it ends); the end-to-end step waits for both.
// Ends with each step's time, the ten slowest tests and one summary line "N passed, N failed" over every
// test that ran. `npm test -- vitest build` runs only the steps named.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const only = process.argv.slice(2);
const env = { NEXT_TELEMETRY_DISABLED: '1', ...process.env };

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
    // Started when Vitest starts, waited for after it.
    beside: 'build',
  },
  {
    name: 'build',
    cmd: process.execPath,
    args: [path.join(root, 'node_modules/next/dist/bin/next'), 'build'],
  },
  // A fresh data directory, so the first-run setup is exercised every time.
  { name: 'e2e', cmd: bin('playwright'), args: ['test'], fresh: path.join(root, 'test-results', 'e2e-data') },
].filter((step) => only.length === 0 || only.includes(step.name));

/** Runs a step to its end: its exit status (1 when it could not start) and how long it took. `log` sends
 * its output to that file instead of this terminal; `group` makes it a process group of its own, so it
 * can be stopped with every process it started. */
function run(step, { log, group = false } = {}) {
  const started = Date.now();
  const out = log ? openSync(log, 'w') : null;
  const child = spawn(step.cmd, step.args, {
    cwd: root,
    env,
    stdio: out === null ? 'inherit' : ['ignore', out, out],
    detached: group,
  });
  if (out !== null) closeSync(out);
  const done = new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`could not start ${step.name}: ${error.message}`);
      resolve({ status: 1, seconds: (Date.now() - started) / 1000 });
    });
    child.on('exit', (code, signal) =>
      resolve({ status: code ?? (signal ? 128 : 1), signal, seconds: (Date.now() - started) / 1000 }),
    );
  });
  return { child, done };
}

const outcome = (result) => (result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`);
const report = (name, result, note = '') =>
  console.log(`── ${name}: ${outcome(result)} in ${result.seconds.toFixed(1)} s${note}`);

/** The build running beside Vitest, stopped with its whole group when this script is stopped. */
let beside = null;
const stopBeside = () => {
  if (beside && beside.child.exitCode === null && beside.child.signalCode === null) {
    try {
      process.kill(-beside.child.pid, 'SIGTERM');
    } catch {}
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopBeside();
    process.exit(130);
  });
}

let passed = 0;
let failed = 0;
let broken = null;
const times = [];
const suiteStarted = Date.now();
for (const step of steps) {
  if (step.name === beside?.name) continue; // started beside Vitest, already reported
  console.log(`\n── ${step.name} ──`);
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
  const partner = step.beside ? steps.find((other) => other.name === step.beside) : undefined;
  if (partner) {
    const log = path.join(reports, `${partner.name}.log`);
    console.log(`(${partner.name} runs beside it: its output goes to ${path.relative(root, log)})`);
    beside = { name: partner.name, log, ...run(partner, { log, group: true }) };
  }
  const result = await run(step).done;
  report(step.name, result);
  times.push(`${step.name} ${result.seconds.toFixed(1)} s`);
  if (result.status !== 0) {
    broken = step.name;
    // The run has failed: no need to finish the build.
    stopBeside();
  }
  if (partner && beside) {
    const built = await beside.done;
    console.log(`\n── ${partner.name} (beside ${step.name}) ──`);
    if (existsSync(beside.log)) process.stdout.write(readFileSync(beside.log, 'utf8'));
    if (broken === step.name && built.status !== 0) {
      console.log(`── ${partner.name}: stopped after ${built.seconds.toFixed(1)} s (${step.name} failed)`);
    } else report(partner.name, built, ` (beside ${step.name})`);
    times.push(`${partner.name} ${built.seconds.toFixed(1)} s (beside ${step.name})`);
    if (built.status !== 0 && !broken) broken = partner.name;
  }
  if (broken) break;
}
times.push(`total ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);

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
console.log(`\nsteps: ${times.join(' · ')}`);
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
