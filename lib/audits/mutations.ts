// Writes on audits outside their run's state: create (with its sources), settings, delete, and what an
// audit that ended mid-ingest leaves unfinished.
import 'server-only';
import { db, pool } from '@/lib/db/client';
import { dropAuditTables } from '@/lib/db/partitions';
import type { DbClient } from '@/lib/db/types';
import type { PrismaClient } from '@/lib/generated/prisma/client';
import { removeStoredPrefix } from '@/lib/storage/store';
import { siteHostOf } from '@/lib/urls/site-host';
import type { TAuditOptions, TAuditSettings } from './schema';
import { auditUploadPrefix } from './uploads';

export interface NewSource {
  role: 'sitemap' | 'crawl';
  kind: 'upload' | 'url';
  url?: string;
  fileName?: string;
  /** An upload's key in the store (lib/storage); rows before it hold an absolute path, read as such. */
  storedPath?: string;
  bytes?: number;
}

/** Where a new audit comes from: its site (when known) and, for a repeated run, what repeated it. */
export interface AuditOrigin {
  siteId?: string | null;
  trigger?: 'manual' | 'rerun' | 'schedule';
  rerunOf?: string | null;
  scheduleId?: number | null;
}

export async function insertAudit(
  id: string,
  name: string,
  options: TAuditOptions,
  sources: NewSource[],
  origin: AuditOrigin = {},
  /** A transaction's client, when the insert must be atomic with a check (lib/sites/mutations.ts). */
  prisma: Pick<PrismaClient, 'audit'> = db(),
) {
  return prisma.audit.create({
    data: {
      id,
      name,
      siteId: origin.siteId ?? null,
      trigger: origin.trigger ?? 'manual',
      rerunOf: origin.rerunOf ?? null,
      scheduleId: origin.scheduleId ?? null,
      options,
      normalization: options.normalization,
      attempt: 1,
      sources: {
        create: sources.map((s) => ({
          role: s.role,
          kind: s.kind,
          url: s.url ?? null,
          fileName: s.fileName ?? null,
          storedPath: s.storedPath ?? null,
          bytes: s.bytes === undefined ? null : BigInt(s.bytes),
        })),
      },
    },
  });
}

/** Records a crawl export added to a settled audit and the options it is read with, in the transaction that
 * starts the audit again (lib/audit-runs/add-crawl.ts). False when the audit has a crawl export already (one
 * added meanwhile): nothing is written. */
export async function addCrawlSource(
  client: DbClient,
  auditId: string,
  source: NewSource,
  options: Partial<TAuditOptions>,
): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO audit_sources (audit_id, role, kind, url, file_name, stored_path, bytes)
     SELECT $1, 'crawl', $2, $3, $4, $5, $6
      WHERE NOT EXISTS (SELECT 1 FROM audit_sources WHERE audit_id = $1 AND role = 'crawl')`,
    [
      auditId,
      source.kind,
      source.url ?? null,
      source.fileName ?? null,
      source.storedPath ?? null,
      source.bytes === undefined ? null : source.bytes,
    ],
  );
  if (rowCount !== 1) return false;
  await client.query('UPDATE audits SET options = options || $2::jsonb, updated_at = now() WHERE id = $1', [
    auditId,
    JSON.stringify(options),
  ]);
  return true;
}

/** Merges `settings` into the audit's (keys not given keep their value); false when there is no such audit. */
export async function updateAuditSettings(id: string, settings: Partial<TAuditSettings>): Promise<boolean> {
  const { rowCount } = await pool().query(
    'UPDATE audits SET settings = settings || $2::jsonb, updated_at = now() WHERE id = $1',
    [id, JSON.stringify(settings)],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * When an audit ends in the middle of its ingest (failed or cancelled), its counters are made true: they
 * count the files it stored (and their entries), and the file it was reading says it was never read. In
 * the transaction that ends the run, after its row is locked: the walk's file writes hold a share lock on
 * that row and write only while the audit runs (lib/ingest/mutations.ts), so none lands after this. An
 * audit whose ingest had saved its results (`timings`, written with them) keeps them as they are.
 * A cancelled ingest keeps no crawl rows (its discard drops them); a failed one keeps those it stored.
 */
export async function settleUnfinishedIngest(
  client: DbClient,
  auditId: string,
  ended: 'failed' | 'cancelled',
): Promise<void> {
  const { rows } = await client.query<{ settle: boolean }>(
    'SELECT timings IS NULL AS settle FROM audits WHERE id = $1',
    [auditId],
  );
  if (!rows[0]?.settle) return;
  await client.query(
    `UPDATE sitemap_files SET status = $2, error_code = $3, error_message = $4
      WHERE audit_id = $1 AND status = 'pending'`,
    [auditId, ...NOT_READ[ended]],
  );
  await client.query(
    `UPDATE audits a SET sitemap_files = f.files, sitemap_files_failed = f.failed, sitemap_entries = f.entries,
       reused_files = f.reused, progress_done = f.files, progress_total = f.files,
       crawl_rows = CASE WHEN $2 THEN 0 ELSE (SELECT count(*)::int FROM crawl_pages WHERE audit_id = $1) END,
       crawl_rows_rejected = CASE WHEN $2 THEN 0 ELSE a.crawl_rows_rejected END
     FROM (SELECT count(*) FILTER (WHERE error_code IS DISTINCT FROM $3)::int AS files,
                  count(*) FILTER (WHERE status = 'failed' AND error_code IS DISTINCT FROM $3)::int AS failed,
                  coalesce(sum(entries) FILTER (WHERE kind IS DISTINCT FROM 'index' AND kind IS DISTINCT FROM 'robots'), 0)::int AS entries,
                  count(*) FILTER (WHERE reused_from IS NOT NULL AND status = 'ok')::int AS reused
             FROM sitemap_files WHERE audit_id = $1) f
    WHERE a.id = $1`,
    [auditId, ended === 'cancelled', NOT_READ[ended][1]],
  );
}

/** What a file the audit never finished reading says, by how the audit ended: [status, code, message]. */
const NOT_READ = {
  failed: ['failed', 'interrupted', 'Not read: the audit failed'],
  cancelled: ['skipped', 'cancelled', 'Not read: the audit was cancelled'],
} as const;

/** Deletes an audit, its bulk rows (its own partitions), its findings and decisions, and its uploaded
 * files. */
export async function deleteAudit(id: string): Promise<boolean> {
  const { count } = await db().audit.deleteMany({ where: { id } });
  // The web server's role may not drop tables: an owner's function drops those of an audit that is gone.
  if (count > 0) await dropAuditTables(id);
  await removeStoredPrefix(auditUploadPrefix(id));
  return count > 0;
}

// ── An audit's site: the site of its host, created on first sight ─────────────────────────────────────

type Queryable = Pick<DbClient, 'query'>;

/** The id of the site for `host`, created (named after its host) when it is new. */
export async function siteIdForHost(host: string, client: Queryable = pool()): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO sites (host, name) VALUES ($1, $1)
     ON CONFLICT (host) DO UPDATE SET host = EXCLUDED.host
     RETURNING id`,
    [host],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`no site row for ${host}`);
  return id;
}

/** Puts an audit that has no site yet in its site: the host of its first sitemap URL, else of the first URL
 * it declared (uploads). Returns the audit's site id, or null when neither names a host. */
export async function attachSite(client: DbClient, auditId: string): Promise<string | null> {
  const { rows } = await client.query<{ site_id: string | null; url: string | null }>(
    `SELECT a.site_id,
            (SELECT s.url FROM audit_sources s
              WHERE s.audit_id = a.id AND s.role = 'sitemap' AND s.kind = 'url' ORDER BY s.id LIMIT 1) AS url
       FROM audits a WHERE a.id = $1`,
    [auditId],
  );
  const audit = rows[0];
  if (!audit) return null;
  if (audit.site_id) return audit.site_id;
  let host = siteHostOf(audit.url);
  if (!host) {
    const first = await client.query<{ loc: string }>(
      `SELECT loc FROM sitemap_entries WHERE audit_id = $1 AND loc ~* '^https?://' LIMIT 1`,
      [auditId],
    );
    host = siteHostOf(first.rows[0]?.loc);
  }
  if (!host) return null;
  const siteId = await siteIdForHost(host, client);
  await client.query('UPDATE audits SET site_id = $2 WHERE id = $1 AND site_id IS NULL', [auditId, siteId]);
  return siteId;
}
