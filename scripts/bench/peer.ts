// The DuckDB peer: scripts/bench/peer/reconcile_duckdb.py, what a data-savvy SEO would write with DuckDB and
// lxml to do the reference script's job (same normalization, same five rules, same CSV files), run on the
// same inputs right after it, timed the same way (the whole python process) and checked against its counts.
// Its packages live in scripts/bench/peer/.venv, made on demand with `python3 -m venv` and pip from the
// pinned requirements.txt (never a dependency of the app); the install is timed on its own, and when it
// cannot be done the bench says why in one line and goes on without the column.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchInputs } from './generate';

const peerDir = path.join(import.meta.dirname, 'peer');
const venvDir = path.join(peerDir, '.venv');
const venvPython = path.join(venvDir, 'bin', 'python');
const requirements = path.join(peerDir, 'requirements.txt');
const script = path.join(peerDir, 'reconcile_duckdb.py');
/** A copy of requirements.txt, written into the venv once pip has installed it. */
const installedMark = path.join(venvDir, 'installed-requirements.txt');

/** A timed run of a reconcile script: its wall time and the rows of its two CSV files. */
export interface ScriptRun {
  seconds: number;
  prune: number;
  add: number;
}

export interface DuckdbPeer extends ScriptRun {
  /** Our end-to-end time over the peer's. */
  oursOverPeer: number;
  /** Load averages (1, 5, 15 min) when the peer started: the machine is shared. */
  loadAverage: number[];
}

function lastLine(text: string | null | undefined): string {
  const lines = (text ?? '').trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim().slice(0, 200) || 'no message';
}

/** Null once the venv has the pinned packages (installed now when it had not), else why it cannot have them. */
function ensureVenv(log: (message: string) => void): string | null {
  const wanted = readFileSync(requirements, 'utf8');
  if (existsSync(installedMark) && readFileSync(installedMark, 'utf8') === wanted) return null;
  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (python.error || python.status !== 0) return 'python3 was not found';
  log(
    'installing the DuckDB peer into scripts/bench/peer/.venv (python3 -m venv, pip install -r requirements.txt)…',
  );
  const started = performance.now();
  if (!existsSync(venvPython)) {
    const venv = spawnSync('python3', ['-m', 'venv', venvDir], { encoding: 'utf8' });
    if (venv.status !== 0) {
      // A venv without pip is left behind when ensurepip is missing: the next run starts again.
      rmSync(venvDir, { recursive: true, force: true });
      return `python3 -m venv failed (${lastLine(venv.stderr || venv.stdout)}); on Debian: apt-get install python3-venv`;
    }
  }
  const pip = spawnSync(
    venvPython,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--only-binary',
      ':all:',
      '-r',
      requirements,
    ],
    { encoding: 'utf8' },
  );
  if (pip.status !== 0)
    return `pip install -r scripts/bench/peer/requirements.txt failed (${pip.error?.message ?? lastLine(pip.stderr)})`;
  writeFileSync(installedMark, wanted);
  log(
    `DuckDB peer installed in ${((performance.now() - started) / 1000).toFixed(1)} s (not part of its time)`,
  );
  return null;
}

/** A playbook-style script (the reference, or the peer) on the bench's inputs through its environment,
 * timed as a whole process; its prune and add counts, and the folder of its two CSV files. */
export function runPlaybook(
  python: string,
  script: string,
  inputs: BenchInputs,
  name: string,
): { seconds: number; prune: number; add: number; out: string } {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bench-playbook-'));
  const started = performance.now();
  const run = spawnSync(python, [script], {
    env: {
      ...process.env,
      SITEMAP_PATH: inputs.singleSitemap,
      CRAWL_GRAPH_PATH: inputs.crawlFile,
      OUT_DIR: out,
    },
    encoding: 'utf8',
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${name} failed: ${run.error?.message ?? run.stderr}`);
  const rows = (file: string) => readFileSync(path.join(out, file), 'utf8').trim().split('\n').length - 1;
  return {
    seconds: Number(seconds.toFixed(2)),
    prune: rows('prune_list.csv'),
    add: rows('add_list.csv'),
    out,
  };
}

/**
 * The DuckDB peer on the reference script's inputs, after it: its time and counts, which must equal the
 * reference's (a wrong peer is an error, not a figure); a sentence saying why when it did not run.
 */
export function runDuckdbPeer(
  inputs: BenchInputs,
  reference: ScriptRun | null,
  oursSeconds: number,
  log: (message: string) => void,
): DuckdbPeer | string {
  if (!reference) return 'not run: the reference script did not run, and its counts check the peer';
  const skipped = ensureVenv(log);
  if (skipped) {
    log(`DuckDB peer skipped: ${skipped}`);
    return `not run: ${skipped}`;
  }
  const loadAverage = os.loadavg().map((n) => Number(n.toFixed(2)));
  const { seconds, prune, add, out } = runPlaybook(venvPython, script, inputs, 'the DuckDB peer');
  if (prune !== reference.prune || add !== reference.add)
    throw new Error(
      `the DuckDB peer disagrees with the reference script: prune ${prune} vs ${reference.prune}, add ${add} vs ${reference.add} (its files are in ${out})`,
    );
  rmSync(out, { recursive: true, force: true });
  return {
    seconds,
    prune,
    add,
    oursOverPeer: Number((oursSeconds / seconds).toFixed(2)),
    loadAverage,
  };
}

/** The peer for the bench's summary lines, beside the reference script's ratio. */
export function describePeer(peer: DuckdbPeer | string): string {
  return typeof peer === 'string'
    ? `; DuckDB peer ${peer}`
    : `; DuckDB peer ${peer.seconds} s (ours / duckdb ${peer.oursOverPeer}; prune ${peer.prune.toLocaleString('en-US')}, add ${peer.add.toLocaleString('en-US')}, as the reference's; load average ${peer.loadAverage.join(', ')})`;
}
