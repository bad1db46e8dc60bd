// The storage floor: what PostgreSQL alone takes to write the rows an audit keeps — its sitemap entries,
// its crawl rows and its findings — with nothing computed. The audit's own rows are read back as COPY
// text, then written again the way the ingest and the reconcile write them (a table created in the same
// transaction, COPY … FREEZE, asynchronous commit, the two inputs on two sessions at once, then the
// findings in two halves at once). No parser, key or rule of ours runs: an end to end time below this
// floor cannot be had while persisting everything on this machine, whatever the code does.
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { BULK_SCHEMA } from '@/lib/db/partitions';

export interface StorageFloor {
  /** Rows written: sitemap entries, crawl rows, findings. */
  rows: { entries: number; crawl: number; findings: number };
  /** The best of the rounds: both inputs at once, then both halves of the findings at once. */
  inputsSeconds: number;
  findingsSeconds: number;
  seconds: number;
  /** Every round's total, to show the spread. */
  rounds: number[];
}

const TABLES = { entries: 'sitemap_entries', crawl: 'crawl_pages', findings: 'findings' } as const;
type Name = keyof typeof TABLES;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function columnsOf(client: pg.Client, table: string): Promise<string> {
  const { rows } = await client.query<{ cols: string }>(
    `SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS cols FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [table],
  );
  return rows[0]?.cols ?? '';
}

/** Streams `select` as COPY text into `file`; returns the rows. */
async function dump(client: pg.Client, select: string, file: string): Promise<number> {
  const stream = client.query(copyTo(`COPY (${select}) TO STDOUT`));
  await pipeline(stream, createWriteStream(file));
  return stream.rowCount ?? 0;
}

/** Writes `file` into a new table like `table` on a session of its own, as a load does; its seconds. */
async function load(url: string, table: string, cols: string, file: string, name: string): Promise<number> {
  const client = await connect(url);
  const scratch = `"${BULK_SCHEMA}"."bench_floor_${name}"`;
  try {
    await client.query(`DROP TABLE IF EXISTS ${scratch}`);
    const started = performance.now();
    await client.query('BEGIN');
    await client.query('SET LOCAL synchronous_commit = off');
    await client.query(`CREATE TABLE ${scratch} (LIKE "${table}" INCLUDING DEFAULTS)`);
    await pipeline(
      createReadStream(file, { highWaterMark: 256 * 1024 }),
      client.query(copyFrom(`COPY ${scratch} (${cols}) FROM STDIN WITH (FREEZE)`)),
    );
    await client.query('COMMIT');
    const seconds = (performance.now() - started) / 1000;
    await client.query(`DROP TABLE ${scratch}`);
    return seconds;
  } finally {
    await client.end();
  }
}

/**
 * Measures the floor for `auditId` (reconciled) in `dir` (its COPY files are removed afterwards). `url`
 * must be able to create tables in the bulk schema (the worker's role or the owner).
 */
export async function measureStorageFloor(
  url: string,
  auditId: string,
  dir: string,
  rounds = 3,
): Promise<StorageFloor> {
  const work = path.join(dir, 'storage-floor');
  mkdirSync(work, { recursive: true });
  const client = await connect(url);
  const cols = {} as Record<Name, string>;
  const files = {
    entries: path.join(work, 'entries.copy'),
    crawl: path.join(work, 'crawl.copy'),
    findings0: path.join(work, 'findings-0.copy'),
    findings1: path.join(work, 'findings-1.copy'),
  };
  const rows = { entries: 0, crawl: 0, findings: 0 };
  try {
    for (const name of Object.keys(TABLES) as Name[]) cols[name] = await columnsOf(client, TABLES[name]);
    const where = `audit_id = '${auditId}'::uuid`;
    rows.entries = await dump(
      client,
      `SELECT ${cols.entries} FROM sitemap_entries WHERE ${where}`,
      files.entries,
    );
    rows.crawl = await dump(client, `SELECT ${cols.crawl} FROM crawl_pages WHERE ${where}`, files.crawl);
    for (const half of [0, 1] as const)
      rows.findings += await dump(
        client,
        `SELECT ${cols.findings} FROM findings WHERE ${where} AND id % 2 = ${half}`,
        half === 0 ? files.findings0 : files.findings1,
      );
  } finally {
    await client.end();
  }
  try {
    const totals: { inputs: number; findings: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await Promise.all([
        load(url, TABLES.entries, cols.entries, files.entries, 'entries'),
        load(url, TABLES.crawl, cols.crawl, files.crawl, 'crawl'),
      ]);
      const between = performance.now();
      await Promise.all([
        load(url, TABLES.findings, cols.findings, files.findings0, 'findings0'),
        load(url, TABLES.findings, cols.findings, files.findings1, 'findings1'),
      ]);
      totals.push({ inputs: (between - started) / 1000, findings: (performance.now() - between) / 1000 });
    }
    const best = totals.reduce((a, b) => (b.inputs + b.findings < a.inputs + a.findings ? b : a));
    const round2 = (n: number) => Number(n.toFixed(2));
    return {
      rows,
      inputsSeconds: round2(best.inputs),
      findingsSeconds: round2(best.findings),
      seconds: round2(best.inputs + best.findings),
      rounds: totals.map((t) => round2(t.inputs + t.findings)),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function describeFloor(floor: StorageFloor | string): string {
  if (typeof floor === 'string') return `storage floor ${floor}`;
  const n = (v: number) => v.toLocaleString('en-US');
  return `storage floor ${floor.seconds} s (PostgreSQL writing ${n(floor.rows.entries)} entries + ${n(
    floor.rows.crawl,
  )} crawl rows in ${floor.inputsSeconds} s, then ${n(floor.rows.findings)} findings in ${
    floor.findingsSeconds
  } s, nothing computed; best of ${floor.rounds.join(', ')} s)`;
}
