// Where an audit's time goes, stage by stage: the worker's CPU by stage from V8 CPU profiles of its threads
// (the main thread reads the sitemap tree, the export reader's thread the crawl export), and Postgres's
// share from the SQL trace (SQL_TRACE=1: every statement of a load or a reconcile with its duration).
// The profiles are taken from the TypeScript sources (the worker run through tsx), so that each sample
// names its module; the bundled worker the product runs executes the same code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The stage of a frame of our code or of a package a stage is built on; null for anything else (Node's
 * internals, built-ins such as JSON.parse or a socket write), which counts for the nearest caller that
 * has a stage. */
const CPU_STAGES: [stage: string, test: (url: string, fn: string) => boolean][] = [
  ['gc', (_, fn) => fn === '(garbage collector)'],
  ['idle', (_, fn) => fn === '(idle)'],
  ['module loading', (url) => /^node:internal\/modules\/|\/tsx\/|cjs-module-lexer/.test(url)],
  ['fetch + gunzip', (url) => /node:zlib|lib\/sitemap\/(decompress|content-decoder)|lib\/net\//.test(url)],
  ['sitemap parse', (url) => /\/saxes\/|\/xmlchars\/|lib\/sitemap\//.test(url)],
  ['crawl parse', (url) => /lib\/crawl\/|\/csv-parse\//.test(url)],
  ['key', (url) => /lib\/urls\//.test(url)],
  [
    'COPY encode + send',
    (url) => /lib\/ingest\/(copy-lines|crawl-encode)|lib\/db\/copy|pg-copy-streams/.test(url),
  ],
  ['pg client', (url) => /\/pg\/|\/pg-protocol\/|\/pg-pool\//.test(url)],
  ['ingest steering (tree walk, loads)', (url) => /lib\/ingest\/|lib\/db\/partitions/.test(url)],
  ['queue, runs, heartbeats', (url) => /\/pg-boss\/|lib\/(runs|queue|worker|audit-runs)\//.test(url)],
  ['Prisma', (url) => /@prisma\/|lib\/generated\//.test(url)],
  ['other code of ours', (url) => /\/(lib|scripts)\//.test(url) && !url.includes('/node_modules/')],
];

const stageOfFrame = (url: string, fn: string) => CPU_STAGES.find(([, test]) => test(url, fn))?.[0] ?? null;

/** Milliseconds of CPU per stage over every profile in `dir` (one file per thread): each sample counts for
 * its own frame's stage, or the nearest caller's that has one. */
export function cpuByStage(dir: string): { threads: number; ms: Record<string, number> } {
  const ms: Record<string, number> = {};
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const parent = new Map<number, number>();
    const byId = new Map<number, ProfileNode>();
    for (const node of profile.nodes) {
      byId.set(node.id, node);
      for (const child of node.children ?? []) parent.set(child, node.id);
    }
    const memo = new Map<number, string>();
    const stageOf = (id: number): string => {
      const known = memo.get(id);
      if (known) return known;
      const node = byId.get(id);
      const own = node ? stageOfFrame(node.callFrame.url, node.callFrame.functionName) : null;
      const up = parent.get(id);
      const stage = own ?? (up === undefined ? 'Node internals (event loop, streams, sockets)' : stageOf(up));
      memo.set(id, stage);
      return stage;
    };
    profile.samples.forEach((id, i) => {
      const stage = stageOf(id);
      ms[stage] = (ms[stage] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
    });
  }
  return { threads: files.length, ms };
}

/** What the reconcile job's shared sets are (lib/reconcile/sql.ts `SET_NAMES`), for the profile's rows. */
const SETS: Record<string, string> = {
  dk: 'declared keys',
  d: 'declared keys',
  ck: 'crawl keys',
  c: 'crawl keys',
  u: 'undeclared pages',
  cl: 'undeclared pages',
  sec: 'sections, hosts',
  ds: 'sections, hosts',
  dh: 'sections, hosts',
  cp: 'canonical and redirect targets',
  rt: 'canonical and redirect targets',
  cdk: 'canonical and redirect targets',
  tg: 'canonical and redirect targets',
  fo: 'declared findings order',
};

/** The kind of statement a traced SQL line (its first 100 characters) is. */
function sqlStage(sql: string): string {
  if (/^COPY /i.test(sql)) return 'COPY (Postgres)';
  if (/^CREATE (UNIQUE )?INDEX/i.test(sql)) return 'indexes';
  if (/^(ANALYZE|VACUUM)/i.test(sql)) return 'statistics';
  const set = /^CREATE UNLOGGED TABLE "reconcile_([a-z]+)_/i.exec(sql);
  if (set) return `sets: ${SETS[set[1] as string] ?? set[1]}`;
  if (/^INSERT INTO "findings/i.test(sql)) return 'classify (findings inserts)';
  if (/^INSERT INTO finding_counts/i.test(sql)) return 'finding counts';
  if (/^(CREATE TABLE|ALTER TABLE|DROP TABLE)/i.test(sql)) return 'partitions (create, attach, drop)';
  return 'other statements';
}

/** Milliseconds of statements per kind, from the worker's `[sql] <ms> ms  <statement>` lines. */
export function sqlByStage(log: string): { statements: number; ms: Record<string, number> } {
  const ms: Record<string, number> = {};
  let statements = 0;
  for (const line of log.split('\n')) {
    const match = /\[sql\]\s+(\d+) ms {2}(.*)$/.exec(line);
    if (!match) continue;
    statements++;
    const sql = match[2] as string;
    const stage = sqlStage(sql);
    ms[stage] = (ms[stage] ?? 0) + Number(match[1]);
  }
  return { statements, ms };
}

/** Not stages of the audit: a thread waiting, and the worker's start-up (the profile covers its life). */
export const NOT_STAGES = ['idle', 'module loading'];

/** Rows of "stage: seconds" sorted by time, for the log. */
export function stageLines(ms: Record<string, number>): string[] {
  return Object.entries(ms)
    .filter(([stage]) => !NOT_STAGES.includes(stage))
    .sort((a, b) => b[1] - a[1])
    .map(([stage, t]) => `${stage.padEnd(46)} ${(t / 1000).toFixed(2).padStart(7)} s`);
}
