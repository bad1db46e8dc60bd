// A settled run's effect on its site's history, as set-based SQL in the settling transaction: the two-crawl
// confirmation of unreached rows, and the change events between the site's URL state (site_urls, the last
// complete run's keys) and the run's declared keys. Nothing is read into memory: a 1,000,000-URL run is a few
// hash joins (docs/performance.md, "Change events").
import 'server-only';
import type { DbClient } from '@/lib/db/types';
import { UNREACHED_CONFIRMED } from '../schema';

export interface SiteOfRun {
  siteId: string;
  /** The complete run site_urls holds (null before the first, or once that audit is deleted). */
  lastCompleteAuditId: string | null;
  /** Null: no complete run yet, so the next one is the quiet baseline. */
  stateAt: Date | null;
  /** Set once this run's events are written: never twice. */
  changesAppliedAt: Date | null;
  /** The run finished before the run whose URLs are the site's state (its history comes late). */
  finishedBeforeState: boolean;
}

/** The audit's site, its row locked until the transaction ends (two runs settling at once apply in turn);
 * null for an audit without a site. */
export async function lockSiteOfRun(client: DbClient, auditId: string): Promise<SiteOfRun | null> {
  const { rows } = await client.query<{
    site_id: string;
    last_complete_audit_id: string | null;
    state_at: Date | null;
    changes_applied_at: Date | null;
    finished_before_state: boolean | null;
  }>(
    `SELECT s.id AS site_id, s.last_complete_audit_id, s.state_at, a.changes_applied_at,
            a.finished_at < (SELECT l.finished_at FROM audits l WHERE l.id = s.last_complete_audit_id)
              AS finished_before_state
       FROM audits a JOIN sites s ON s.id = a.site_id
      WHERE a.id = $1
        FOR UPDATE OF s`,
    [auditId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    siteId: row.site_id,
    lastCompleteAuditId: row.last_complete_audit_id,
    stateAt: row.state_at,
    changesAppliedAt: row.changes_applied_at,
    finishedBeforeState: row.finished_before_state === true,
  };
}

/**
 * Runs `work` with nested loops off and room for its hashes, then puts both settings back (the settling
 * transaction goes on). The statistics of site_urls and of fresh partitions describe whatever autovacuum
 * last sampled: for a site new to them the planner guesses one row and nests loops over its 1,000,000 (a
 * bench run's DELETE ran for minutes). Every join here is an equality, so hash joins are always possible;
 * a 1,000,000-key hash is some 150 MB, which the default 4 MB work_mem would spill to disk in batches (the
 * worker settles one run at a time; the reconcile step itself takes 512 MB).
 */
export async function withoutNestedLoops(client: DbClient, work: () => Promise<void>): Promise<void> {
  const { rows } = await client.query<{ nestloop: string; mem: string }>(
    `SELECT current_setting('enable_nestloop') AS nestloop, current_setting('work_mem') AS mem,
            set_config('enable_nestloop', 'off', true), set_config('work_mem', '256MB', true)`,
  );
  await work();
  await client.query(`SELECT set_config('enable_nestloop', $1, true), set_config('work_mem', $2, true)`, [
    rows[0]?.nestloop ?? 'on',
    rows[0]?.mem ?? '4MB',
  ]);
}

/** Appends `unreached_confirmed` to the audit's unreached_by_crawl findings whose key the previous complete
 * audit had unreached too (one UPDATE over the findings partitions; counts are per list, reason, decision
 * and host, which a signal leaves alone). Returns how many rows got it. */
export async function confirmUnreached(
  client: DbClient,
  auditId: string,
  previousAuditId: string,
): Promise<number> {
  const { rowCount } = await client.query(
    `UPDATE findings f SET signals = array_append(f.signals, $3)
      WHERE f.audit_id = $1 AND f.reason = 'unreached_by_crawl' AND NOT (f.signals @> ARRAY[$3])
        AND f.key IN (SELECT p.key FROM findings p WHERE p.audit_id = $2 AND p.reason = 'unreached_by_crawl')`,
    [auditId, previousAuditId, UNREACHED_CONFIRMED],
  );
  return rowCount ?? 0;
}

export const CRAWL_REPEATED = 'crawl_repeated';

/**
 * Whether the audit read the same crawl as `previousAuditId` (the same bytes, or the same latest crawl date
 * where both exports have one): a repeat is no second look at the site, so it must not confirm anything.
 * A repeat is recorded on the audit (crawl_repeat_of, and a warning that says so, once).
 */
export async function markRepeatedCrawl(
  client: DbClient,
  auditId: string,
  previousAuditId: string,
): Promise<boolean> {
  const { rows } = await client.query<{ same_bytes: boolean; same_date: boolean; name: string }>(
    `SELECT coalesce(a.crawl_sha256 = p.crawl_sha256, false) AS same_bytes,
            coalesce(a.crawl_latest_at = p.crawl_latest_at, false) AS same_date, p.name
       FROM audits a, audits p WHERE a.id = $1 AND p.id = $2`,
    [auditId, previousAuditId],
  );
  const row = rows[0];
  if (!row || !(row.same_bytes || row.same_date)) return false;
  const how = row.same_bytes
    ? 'the same file, byte for byte'
    : 'an export of the same crawl (same crawl date)';
  const message =
    `This run read the same crawl as the previous complete run "${row.name}" (${how}): its unreached ` +
    'rows are not confirmed across two crawls. Run again with a new crawl export to confirm them.';
  await client.query(
    `UPDATE audits SET crawl_repeat_of = $2,
            warnings = CASE WHEN warnings @> $3::jsonb THEN warnings
                            ELSE warnings || jsonb_build_array(jsonb_build_object('code', $4::text, 'message', $5::text)) END
      WHERE id = $1`,
    [auditId, previousAuditId, JSON.stringify([{ code: CRAWL_REPEATED }]), CRAWL_REPEATED, message],
  );
  return true;
}

/** Keys longer than this (in bytes) are not tracked: site_urls's primary key holds the key, and a btree
 * entry holds at most about 2,700 bytes (a 2,048-character URL of non-ASCII text passes that; such a run
 * failed to settle before this limit). */
const TRACKED_KEY_BYTES = 2000;

/** The run's declared keys (one loc and the latest lastmod per key) as a temporary table, analysed so the
 * joins below are planned as hash joins over it. */
async function declaredKeys(client: DbClient, auditId: string): Promise<void> {
  await client.query('DROP TABLE IF EXISTS pg_temp.run_keys');
  await client.query(
    `CREATE TEMP TABLE run_keys ON COMMIT DROP AS
     SELECT e.key, min(e.loc) AS loc, max(e.lastmod) AS lastmod
       FROM sitemap_entries e
      WHERE e.audit_id = $1 AND e.key IS NOT NULL AND octet_length(e.key) <= ${TRACKED_KEY_BYTES}
      GROUP BY e.key`,
    [auditId],
  );
  await client.query('ANALYZE pg_temp.run_keys');
}

/** The first complete run of a site: its keys become the state, with no events. In key order, so the
 * primary key's index is filled left to right (1,000,000 rows: docs/performance.md). */
async function writeBaseline(client: DbClient, siteId: string, auditId: string): Promise<void> {
  // A site without a state holds no URLs (only complete runs write them): the DELETE makes sure of it, and
  // spares the insert ON CONFLICT's per-row check.
  await client.query('DELETE FROM site_urls WHERE site_id = $1', [siteId]);
  await client.query(
    `INSERT INTO site_urls (site_id, key, loc, lastmod, first_seen_audit_id)
     SELECT $1, k.key, k.loc, k.lastmod, $2 FROM pg_temp.run_keys k ORDER BY k.key`,
    [siteId, auditId],
  );
}

/** The state's keys the run misses whose crawl row in the run redirects to a key the run adds (first crawl
 * row of a key), as a temporary table: the moves. */
async function movedKeys(client: DbClient, siteId: string, auditId: string): Promise<void> {
  await client.query('DROP TABLE IF EXISTS pg_temp.run_moves');
  await client.query(
    `CREATE TEMP TABLE run_moves ON COMMIT DROP AS
     SELECT DISTINCT ON (s.key) s.key, t.loc AS target
       FROM (SELECT key FROM site_urls WHERE site_id = $1) s
       JOIN crawl_pages c ON c.audit_id = $2 AND c.key = s.key AND c.redirect_key IS NOT NULL
       JOIN pg_temp.run_keys t ON t.key = c.redirect_key
      WHERE NOT EXISTS (SELECT 1 FROM pg_temp.run_keys k WHERE k.key = s.key)
        AND NOT EXISTS (SELECT 1 FROM site_urls a WHERE a.site_id = $1 AND a.key = t.key)
      ORDER BY s.key, c.line`,
    [siteId, auditId],
  );
}

/**
 * The events between the state and the run (one full join), then the state moved to the run: added keys
 * inserted, changed ones updated, returning ones cleared of their pending removal (no event for that),
 * first misses marked pending, second misses and moves deleted. A missing key the run's crawl redirects to
 * an added one is a move, not a pending removal: the redirect says where it went.
 */
async function writeEvents(client: DbClient, site: SiteOfRun, auditId: string): Promise<void> {
  const params = [site.siteId, auditId, site.lastCompleteAuditId];
  await movedKeys(client, site.siteId, auditId);
  await client.query(
    `INSERT INTO site_changes
       (site_id, audit_id, previous_audit_id, type, key, url, target, previous_lastmod, current_lastmod)
     SELECT $1, $2, $3, d.type, d.key, d.url, d.target, d.previous_lastmod, d.current_lastmod
       FROM (SELECT CASE WHEN s.key IS NULL THEN 'url_added'
                         WHEN k.key IS NOT NULL THEN 'url_lastmod_changed'
                         WHEN m.key IS NOT NULL THEN 'url_moved'
                         WHEN s.missing_since_audit_id IS NULL THEN 'url_removed_pending'
                         ELSE 'url_removed_confirmed' END AS type,
                    coalesce(k.key, s.key) AS key, coalesce(k.loc, s.loc) AS url, m.target,
                    s.lastmod AS previous_lastmod, k.lastmod AS current_lastmod
               FROM pg_temp.run_keys k
               FULL JOIN (SELECT * FROM site_urls WHERE site_id = $1) s ON s.key = k.key
               LEFT JOIN pg_temp.run_moves m ON m.key = s.key AND k.key IS NULL
              WHERE s.key IS NULL OR k.key IS NULL OR s.lastmod IS DISTINCT FROM k.lastmod) d
      ORDER BY d.type, d.key`,
    params,
  );
  await client.query('DROP TABLE pg_temp.run_moves');
  // Kept keys take the run's loc and lastmod; a returning key's pending removal is cleared.
  await client.query(
    `UPDATE site_urls s SET loc = k.loc, lastmod = k.lastmod, missing_since_audit_id = NULL
       FROM pg_temp.run_keys k
      WHERE s.site_id = $1 AND s.key = k.key
        AND (s.lastmod IS DISTINCT FROM k.lastmod OR s.loc <> k.loc OR s.missing_since_audit_id IS NOT NULL)`,
    [site.siteId],
  );
  // The rest follows from this run's events (a few rows of the index on audit_id, hashed).
  await client.query(
    `DELETE FROM site_urls s USING site_changes c
      WHERE c.audit_id = $2 AND c.type IN ('url_removed_confirmed', 'url_moved') AND s.site_id = $1
        AND s.key = c.key`,
    [site.siteId, auditId],
  );
  await client.query(
    `UPDATE site_urls s SET missing_since_audit_id = $2 FROM site_changes c
      WHERE c.audit_id = $2 AND c.type = 'url_removed_pending' AND s.site_id = $1 AND s.key = c.key`,
    [site.siteId, auditId],
  );
  await client.query(
    `INSERT INTO site_urls (site_id, key, loc, lastmod, first_seen_audit_id)
     SELECT $1, c.key, c.url, c.current_lastmod, $2 FROM site_changes c
      WHERE c.audit_id = $2 AND c.type = 'url_added'`,
    [site.siteId, auditId],
  );
}

/** Applies a complete run to its site (the quiet baseline when the site has no state yet) and makes it the
 * site's last complete run. The caller holds the site's lock and has checked the run is not applied yet. */
export async function applyCompleteRun(client: DbClient, site: SiteOfRun, auditId: string): Promise<void> {
  await declaredKeys(client, auditId);
  if (site.stateAt === null) await writeBaseline(client, site.siteId, auditId);
  else await writeEvents(client, site, auditId);
  await client.query('DROP TABLE pg_temp.run_keys');
  await client.query(
    'UPDATE sites SET last_complete_audit_id = $2, state_at = now(), updated_at = now() WHERE id = $1',
    [site.siteId, auditId],
  );
  await client.query('UPDATE audits SET changes_applied_at = now() WHERE id = $1', [auditId]);
}
