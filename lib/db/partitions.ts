// Per-audit partitions of the bulk tables (sitemap_entries, crawl_pages). A load creates the audit's
// table, fills it with COPY, indexes it and attaches it, all in one transaction: with minimal WAL the
// COPY skips the WAL, indexes are built once instead of row by row, and a crashed load leaves nothing.
import 'server-only';
import type pg from 'pg';
import { CopyWriter } from './copy';
import { pool } from './pool';

/** Where the worker creates its tables (its search_path puts it first): per-audit partitions and the
 * reconcile's scratch tables. Its role may create nothing in public (lib/db/roles.ts). */
export const BULK_SCHEMA = 'audit_bulk';

export type BulkTable = 'sitemap_entries' | 'crawl_pages' | 'findings' | 'decision_log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function check(auditId: string): string {
  if (!UUID.test(auditId)) throw new Error(`not an audit id: ${auditId}`);
  return auditId;
}

export function partitionName(table: BulkTable, auditId: string): string {
  return `${table}_${check(auditId).replaceAll('-', '')}`;
}

const INDEXES: Record<BulkTable, (part: string) => string[]> = {
  // Entries and crawl rows have no index at all: the reconcile job reads both whole, by hash.
  sitemap_entries: () => [],
  crawl_pages: () => [],
  // Only the key: the review indexes are built afterwards, in the background (lib/review/indexes.ts).
  findings: (part) => [`ALTER TABLE "${part}" ADD CONSTRAINT "${part}_pkey" PRIMARY KEY (audit_id, id)`],
  decision_log: (part) => [
    `ALTER TABLE "${part}" ADD CONSTRAINT "${part}_pkey" PRIMARY KEY (audit_id, id)`,
    `CREATE INDEX "${part}_finding_idx" ON "${part}" (audit_id, finding_id)`,
  ],
};

/** An audit's findings may come in two parts, split at a finding id (two sessions of the reconcile job
 * write one each, see lib/reconcile/mutations.ts): the second part's table. */
export function secondFindingsPart(auditId: string): string {
  // Not findings_<audit>_2: its review index names would pass Postgres's 63 characters.
  return `findings2_${check(auditId).replaceAll('-', '')}`;
}

/** The partition bound of an audit's rows: findings by ranges of (audit_id, id), the rest by audit. */
export function partitionBound(
  table: BulkTable,
  auditId: string,
  ids: { from?: number; below?: number } = {},
): string {
  const audit = `'${check(auditId)}'`;
  if (table !== 'findings') return `FOR VALUES IN (${audit})`;
  return `FOR VALUES FROM (${audit}, ${ids.from ?? 'MINVALUE'}) TO (${audit}, ${ids.below ?? 'MAXVALUE'})`;
}

/** The CHECK that proves a part's bound, so ATTACH PARTITION skips its validation scan (added while
 * the table is empty, it costs one comparison per row written). */
function boundCheck(auditId: string, ids: { from?: number; below?: number } = {}): string {
  const conditions = [`audit_id = '${check(auditId)}'::uuid`];
  if (ids.from !== undefined) conditions.push(`id >= ${Math.trunc(ids.from)}`);
  if (ids.below !== undefined) conditions.push(`id < ${Math.trunc(ids.below)}`);
  return `CHECK (${conditions.join(' AND ')})`;
}

/**
 * Creates the (unattached) table of an audit's rows of `table`, named `part`, for `ids` (findings only):
 * the statements a load runs first, in its transaction. Another session may create the second part of
 * an audit's findings the same way (lib/reconcile/mutations.ts).
 */
export function createPartSql(
  table: BulkTable,
  part: string,
  auditId: string,
  ids: { from?: number; below?: number } = {},
): string[] {
  // Entries and crawl rows are written once, frozen, and never changed: autovacuum has nothing to do on
  // them, and its workers would only compete with the reconcile job that reads them next (the statistics
  // are taken explicitly). Findings change with every decision, so they keep it.
  const storage = READ_ONLY.has(table) ? ' WITH (autovacuum_enabled = false)' : '';
  return [
    `CREATE TABLE "${part}" (LIKE "${table}" INCLUDING DEFAULTS)${storage}`,
    // Lets ATTACH PARTITION skip its validation scan. The default spares a COPY from sending the audit id
    // on every line (it stays on the partition, where only this audit's rows can go anyway).
    `ALTER TABLE "${part}" ADD CONSTRAINT "${part}_audit" ${boundCheck(auditId, ids)}, ` +
      `ALTER COLUMN audit_id SET DEFAULT '${check(auditId)}'::uuid`,
  ];
}

/** The key (and, for the decision log, index) of a loaded table, built once after its rows are in. */
export function keySql(table: BulkTable, part: string): string[] {
  return INDEXES[table](part);
}

/** Creates an audit's empty partition directly attached (for tables that fill row by row). The decision
 * log is the owner's (the worker may not rewrite it), so its partitions come from a function of the
 * owner's (prisma/migrations/20261201120000_least_privilege). */
export async function createAttachedPartition(table: BulkTable, auditId: string): Promise<void> {
  if (table === 'decision_log') {
    await pool().query('SELECT public.create_decision_log_partition($1)', [check(auditId)]);
    return;
  }
  const part = partitionName(table, auditId);
  await pool().query(
    `CREATE TABLE IF NOT EXISTS "${part}" PARTITION OF "${table}" ${partitionBound(table, auditId)}`,
  );
}

/** Detaches (without blocking readers of other audits) and drops an audit's partitions, if any (both
 * parts of its findings). The decision log's goes through the owner's function, which refuses while the
 * audit exists and its log holds a decision. */
export async function dropPartition(table: BulkTable, auditId: string): Promise<void> {
  if (table === 'decision_log') {
    await pool().query('SELECT public.drop_decision_log_partition($1)', [check(auditId)]);
    return;
  }
  const parts = [partitionName(table, auditId)];
  if (table === 'findings') parts.push(secondFindingsPart(auditId));
  for (const part of parts) {
    const { rows } = await pool().query<{ attached: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname = $1) AS attached`,
      [part],
    );
    if (rows[0]?.attached) {
      // CONCURRENTLY only takes a SHARE UPDATE EXCLUSIVE lock on the parent; it cannot run in a transaction.
      await pool().query(`ALTER TABLE "${table}" DETACH PARTITION "${part}" CONCURRENTLY`);
    }
    await pool().query(`DROP TABLE IF EXISTS "${part}"`);
  }
}

const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Drops every table of a deleted audit (its partitions, findings parts and reconcile sets), for the web
 * server, whose role may not run DDL: an owner's function does it, only for an audit that no longer
 * exists. Each try waits at most 2 s for the parents' locks (other audits' readers queue behind it
 * meanwhile); after a few, what is left is dropped at the next start (lib/db/roles.ts).
 */
export async function dropAuditTables(auditId: string, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await pool().query('SELECT public.drop_audit_tables($1)', [check(auditId)]);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      if (attempt >= tries) {
        console.error(
          `[db] the tables of deleted audit ${auditId} stay until the next start: ${(error as Error).message}`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** The tables of an audit's findings that are attached (one, or two parts), for per-table work such as
 * the review indexes. */
export async function findingsParts(auditId: string): Promise<string[]> {
  const { rows } = await pool().query<{ relname: string }>(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'findings'::regclass AND c.relname = ANY($1) ORDER BY c.relname`,
    [[partitionName('findings', auditId), secondFindingsPart(auditId)]],
  );
  return rows.map((r) => r.relname);
}

/** With SQL_TRACE=1 (worker environment), each statement of a load is logged with its duration: where
 * the time of an ingest or a reconcile goes. */
export async function traced<T>(sql: string, run: () => Promise<T>): Promise<T> {
  if (process.env.SQL_TRACE !== '1') return run();
  const started = performance.now();
  try {
    return await run();
  } finally {
    const ms = (performance.now() - started).toFixed(0).padStart(6);
    console.log(`[sql] ${ms} ms  ${sql.trim().replace(/\s+/g, ' ').slice(0, 100)}`);
  }
}

const READ_ONLY = new Set<BulkTable>(['sitemap_entries', 'crawl_pages']);

/**
 * A bulk load's transaction need not wait for its WAL to reach the disk. Safe because nobody is told it
 * succeeded: the step's results and its state change are written later, in one transaction of their
 * own with a synchronous commit (lib/runs/mutations.ts `transition`). WAL is one stream, so that flush
 * (or any later synchronous commit: a heartbeat, a decision) makes this commit durable too; a crash
 * before it loses this commit and every later one, which leaves the step claimed with a stale heartbeat:
 * the reaper re-queues it and the next attempt drops what was half written (its `discard`, then
 * `dropPartition` in `PartitionLoad.begin`). Only for the transaction it is run in (SET LOCAL).
 */
export const ASYNCHRONOUS_COMMIT = 'SET LOCAL synchronous_commit = off';

/** One audit's load into one bulk table, on a dedicated connection holding one transaction. */
export class PartitionLoad {
  private closed = false;

  private constructor(
    private readonly client: pg.PoolClient,
    readonly table: BulkTable,
    readonly auditId: string,
    readonly part: string,
    private readonly bound: string,
  ) {}

  /** `ids`: for findings, the range of finding ids this part holds (all, by default). */
  static async begin(
    table: BulkTable,
    auditId: string,
    ids: { from?: number; below?: number } = {},
  ): Promise<PartitionLoad> {
    await dropPartition(table, auditId);
    const part = partitionName(table, auditId);
    const client = await pool().connect();
    try {
      await client.query('BEGIN');
      // The new table's pages reach the disk while the load goes on (the kernel is asked to write back
      // every 2 MB written) instead of all at the commit, whose fsync of a few hundred MB then waits less.
      await client.query("SET LOCAL backend_flush_after = '2MB'");
      await client.query(ASYNCHRONOUS_COMMIT);
      for (const sql of createPartSql(table, part, auditId, ids)) await client.query(sql);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      throw error;
    }
    return new PartitionLoad(client, table, auditId, part, partitionBound(table, auditId, ids));
  }

  /** Runs a statement inside the load's transaction (e.g. INSERT ... SELECT into the partition). */
  async query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('the load is already finished');
    return traced(sql, () => this.client.query(sql, params));
  }

  /** A COPY into the partition; only one may be open at a time. The rows are written frozen (the table
   * is new in this transaction): their first readers — index builds, the reconcile job — then neither
   * set hint bits on every page nor leave the pages for autovacuum to freeze. */
  copy(columns: readonly string[]): CopyWriter {
    if (this.closed) throw new Error('the load is already finished');
    return new CopyWriter(this.client, this.part, columns, { freeze: true });
  }

  /** Indexes the loaded rows, attaches the partition (and `alsoAttach`: tables of the same audit that
   * another session wrote and committed) and commits. */
  async commit(alsoAttach: { part: string; bound: string }[] = []): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      const run = (sql: string) => traced(sql, () => this.client.query(sql));
      for (const sql of keySql(this.table, this.part)) await run(sql);
      // Fresh statistics for the reconcile job's plans (the findings get theirs with the review indexes).
      // Its hash joins need row counts and whether keys repeat, not histograms: a sample of 3,000 rows
      // (statistics target 10) takes 20 ms where the default 30,000 took 300 ms on a million rows.
      if (READ_ONLY.has(this.table)) {
        await run('SET LOCAL default_statistics_target = 10');
        await run(`ANALYZE "${this.part}"`);
      }
      for (const other of alsoAttach)
        await run(`ALTER TABLE "${this.table}" ATTACH PARTITION "${other.part}" ${other.bound}`);
      await run(`ALTER TABLE "${this.table}" ATTACH PARTITION "${this.part}" ${this.bound}`);
      await run('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      this.client.release();
    }
  }

  async rollback(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.client.query('ROLLBACK');
    } finally {
      this.client.release();
    }
  }
}
