// The built-in crawler's Postgres side: the frontier store a crawl resumes from (append only, one
// transaction per flush), the declared URLs a list crawl fetches, and the final load of its pages into the
// audit's crawl_pages partition, where the reconciliation reads them like an export's rows.
import 'server-only';
import { SqlParams } from '@/lib/db/params';
import { ASYNCHRONOUS_COMMIT, dropPartition, PartitionLoad } from '@/lib/db/partitions';
import { closePool, pool, transaction } from '@/lib/db/pool';
import { CRAWL_COLUMNS, type LoadFacts } from '@/lib/ingest/copy-lines';
import { type NormalizationProfile, normalizeUrl, urlKeys } from '@/lib/urls/normalize';
import type { CrawlFlush, CrawlProgress, CrawlStore, FrontierItem } from './types';

/** The frontier of one audit's crawl in Postgres. Saves are append only and atomic: what a flush admitted,
 * answered and counted is there together or not at all, so a crawl resumed after its worker died refetches
 * only the pages of its last, unsaved flush. */
export function postgresCrawlStore(auditId: string, profile: NormalizationProfile): CrawlStore {
  return {
    async load() {
      const { rows } = await pool().query<{
        seq: number;
        key: string;
        url: string;
        depth: number;
        done: boolean;
      }>(
        `SELECT f.seq, f.key, f.url, f.depth, r.seq IS NOT NULL AS done
           FROM crawl_frontier f LEFT JOIN crawl_results r ON r.audit_id = f.audit_id AND r.seq = f.seq
          WHERE f.audit_id = $1 ORDER BY f.seq`,
        [auditId],
      );
      const progress = await pool().query<{ crawl_progress: CrawlProgress | null }>(
        'SELECT crawl_progress FROM audits WHERE id = $1',
        [auditId],
      );
      const items: FrontierItem[] = rows;
      return { items, progress: progress.rows[0]?.crawl_progress ?? null };
    },
    async save(flush: CrawlFlush) {
      await transaction(async (client) => {
        await client.query(ASYNCHRONOUS_COMMIT);
        if (flush.admitted.length > 0) {
          const p = new SqlParams();
          const a = flush.admitted;
          await client.query(
            `INSERT INTO crawl_frontier (audit_id, seq, key, url, depth)
             SELECT ${p.add(auditId)}, * FROM unnest(${p.add(a.map((i) => i.seq))}::int[], ${p.add(
               a.map((i) => i.key),
             )}::text[], ${p.add(a.map((i) => i.url))}::text[], ${p.add(a.map((i) => i.depth))}::int[])`,
            p.values,
          );
        }
        if (flush.pages.length > 0) {
          const pages = flush.pages;
          const column = <T>(pick: (page: (typeof pages)[number]) => T) => pages.map(pick);
          const p = new SqlParams();
          await client.query(
            `INSERT INTO crawl_results (audit_id, seq, loose_key, status, redirect_url, redirect_key, content_type,
               canonical, canonical_key, canonical_source, noindex, noindex_sources, nofollow, blocked_by_robots,
               method, response_ms, fetched_at, outlinks_internal, outlinks_external, truncated, error_code,
               error_message)
             SELECT ${p.add(auditId)}, * FROM unnest(
               ${p.add(column((g) => g.seq))}::int[], ${p.add(column((g) => urlKeys(g.url, profile)?.loose ?? null))}::text[],
               ${p.add(column((g) => g.status))}::int[], ${p.add(column((g) => g.redirectUrl))}::text[],
               ${p.add(column((g) => related(g.redirectUrl, g.url, g.key, profile)))}::text[],
               ${p.add(column((g) => g.contentType))}::text[], ${p.add(column((g) => g.canonical))}::text[],
               ${p.add(column((g) => related(g.canonical, g.url, g.key, profile)))}::text[],
               ${p.add(column((g) => g.canonicalSource))}::text[], ${p.add(column((g) => g.noindex))}::bool[],
               ${p.add(column((g) => (g.noindexSources.length > 0 ? g.noindexSources.join(',') : null)))}::text[],
               ${p.add(column((g) => g.nofollow))}::bool[], ${p.add(column((g) => g.blockedByRobots))}::bool[],
               ${p.add(column((g) => g.method))}::text[],
               ${p.add(column((g) => (g.responseMs === null ? null : Math.round(g.responseMs))))}::int[],
               ${p.add(column((g) => g.fetchedAt.toISOString()))}::timestamptz[],
               ${p.add(column((g) => g.outlinksInternal))}::int[], ${p.add(column((g) => g.outlinksExternal))}::int[],
               ${p.add(column((g) => g.truncated))}::bool[], ${p.add(column((g) => g.error?.code ?? null))}::text[],
               ${p.add(column((g) => g.error?.message.slice(0, 1000) ?? null))}::text[])`,
            p.values,
          );
        }
        if (flush.inlinks.size > 0) {
          await client.query(
            `INSERT INTO crawl_inlinks (audit_id, key, n) SELECT $1, * FROM unnest($2::text[], $3::int[])`,
            [auditId, [...flush.inlinks.keys()], [...flush.inlinks.values()]],
          );
        }
        await client.query('UPDATE audits SET crawl_progress = $2::jsonb WHERE id = $1', [
          auditId,
          JSON.stringify(flush.progress),
        ]);
      });
    },
  };
}

/** The key of a page's canonical or redirect target; a self-reference reuses the page's own key. */
function related(
  target: string | null,
  url: string,
  key: string,
  profile: NormalizationProfile,
): string | null {
  if (target === null) return null;
  if (target === url) return key;
  return normalizeUrl(target, profile);
}

/** The declared URLs of an audit in file and position order, in batches (a list crawl's seeds): read as
 * the crawl takes them, so a list of millions is never held whole. One scan, through a cursor held past
 * its transaction (no transaction stays open for the crawl). A URL declared twice comes twice; the crawl
 * admits each key once. */
export async function* declaredUrlBatches(auditId: string, batch = 5_000): AsyncGenerator<string[]> {
  const client = await pool().connect();
  let open = false;
  try {
    await client.query('BEGIN');
    await client.query(
      `DECLARE declared_urls NO SCROLL CURSOR WITH HOLD FOR
       SELECT e.loc FROM sitemap_entries e JOIN sitemap_files f ON f.id = e.file_id
        WHERE e.audit_id = $1 AND e.key IS NOT NULL ORDER BY f.position, e.position`,
      [auditId],
    );
    await client.query('COMMIT');
    open = true;
    for (;;) {
      const { rows } = await client.query<{ loc: string }>(`FETCH ${batch} FROM declared_urls`);
      if (rows.length === 0) return;
      yield rows.map((r) => r.loc);
    }
  } finally {
    if (open) await client.query('CLOSE declared_urls').catch(() => {});
    else await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}

/** The hosts (host:port) of an audit's declared URLs, most declared first. */
export async function declaredHosts(auditId: string, limit = 50): Promise<string[]> {
  const { rows } = await pool().query<{ host: string }>(
    `SELECT split_part(key, '/', 3) AS host FROM sitemap_entries WHERE audit_id = $1 AND key IS NOT NULL
      GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $2`,
    [auditId, limit],
  );
  return rows.map((r) => r.host);
}

/** Loads the crawl's fetched pages into the audit's crawl_pages partition (one statement, inlinks summed),
 * as an export's rows would be: the frontier's order is their line. */
export async function loadCrawledPages(auditId: string): Promise<LoadFacts> {
  const load = await PartitionLoad.begin('crawl_pages', auditId);
  try {
    const columns = CRAWL_COLUMNS.join(', ');
    // Autovacuum has seldom seen a fresh crawl's rows: estimating one row per table, the planner would
    // join them in nested loops, minutes for a 20,000-page crawl. Hash joins are right at any size.
    await load.query('SET LOCAL enable_nestloop = off');
    await load.query(
      `INSERT INTO "${load.part}" (${columns})
       SELECT f.seq, f.url, f.key, r.loose_key, r.status, r.canonical, r.canonical_key, NULL, r.noindex,
              r.blocked_by_robots, r.fetched_at, f.depth, r.redirect_url, r.redirect_key, r.content_type,
              coalesce(i.n, 0), false
         FROM crawl_frontier f
         JOIN crawl_results r ON r.audit_id = f.audit_id AND r.seq = f.seq
         LEFT JOIN (SELECT key, sum(n)::int AS n FROM crawl_inlinks WHERE audit_id = $1 GROUP BY key) i
           ON i.key = f.key
        WHERE f.audit_id = $1`,
      [auditId],
    );
    const { rows } = await load.query(
      `SELECT count(*)::int AS rows, count(DISTINCT key)::int AS distinct, max(crawled_at) AS latest
         FROM "${load.part}"`,
    );
    await load.commit();
    const facts = rows[0] as { rows: number; distinct: number; latest: Date | null };
    return { rows: facts.rows, keyed: facts.rows, distinct: facts.distinct, latest: facts.latest };
  } catch (error) {
    await load.rollback().catch(() => {});
    throw error;
  }
}

/** Forgets a crawl (a cancelled one, or an audit's ingest starting over): its frontier and pages. */
export async function dropCrawlState(auditId: string): Promise<void> {
  await dropPartition('crawl_pages', auditId);
  await transaction(async (client) => {
    for (const table of ['crawl_frontier', 'crawl_results', 'crawl_inlinks'])
      await client.query(`DELETE FROM ${table} WHERE audit_id = $1`, [auditId]);
  });
}

/** Closes the database connections of the process or thread (the crawl's thread, when it ends). */
export function closeCrawlConnections(): Promise<void> {
  return closePool();
}
