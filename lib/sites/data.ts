// Reads of sites: the list, one site with its runs (the trend's points), and what a run figures as.
import 'server-only';
import { likeEscape } from '@/lib/core/text';
import { pool } from '@/lib/db/client';
import { MIN_KNOWN_SHARE } from '@/lib/gsc/gap-stats';
import { sitemapGaps } from '@/lib/gsc/gaps';
import {
  CHANGE_TYPES,
  type ChangeCounts,
  type ListCounts,
  type RunTrigger,
  type SiteDetailDto,
  type SiteDto,
  type SitePage,
  type SiteRunDto,
  siteSettingsOf,
  type TSiteListQuery,
} from './schema';

/** How many runs a site's page and its trends show (newest first). */
export const SITE_RUNS_SHOWN = 100;
/** Runs whose Search Console gap is computed for the trend (each is a join over the audit's entries). */
const GAP_RUNS = 20;

interface SiteRow {
  id: string;
  host: string;
  name: string;
  settings: unknown;
  created_at: Date;
  last_complete_audit_id: string | null;
  run_count: number;
  active_id: string | null;
  active_status: SiteRunDto['status'] | null;
  latest_id: string | null;
  schedules: number;
  webhooks: number;
}

const SITE_COLUMNS = `
  s.id, s.host, s.name, s.settings, s.created_at, s.last_complete_audit_id,
  (SELECT count(*)::int FROM audits a WHERE a.site_id = s.id) AS run_count,
  act.id AS active_id, act.status::text AS active_status,
  (SELECT a.id FROM audits a WHERE a.site_id = s.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) AS latest_id,
  (SELECT count(*)::int FROM site_schedules x WHERE x.site_id = s.id) AS schedules,
  (SELECT count(*)::int FROM site_webhooks w WHERE w.site_id = s.id) AS webhooks`;
const ACTIVE_JOIN = `
  LEFT JOIN LATERAL (SELECT a.id, a.status FROM audits a
                      WHERE a.site_id = s.id AND a.status IN ('queued', 'running')
                      ORDER BY a.created_at DESC LIMIT 1) act ON true`;

function emptyChanges(): ChangeCounts {
  return Object.fromEntries(CHANGE_TYPES.map((type) => [type, 0])) as ChangeCounts;
}

interface RunRow {
  id: string;
  name: string;
  status: SiteRunDto['status'];
  trigger: string;
  rerun_of: string | null;
  crawl_repeat_of: string | null;
  created_at: Date;
  finished_at: Date | null;
  declared: number;
  reused_files: number;
  reconciled: boolean;
}

/** Gap percentages already computed, by audit, with the version of the Search Console data they came
 * from (the succeeded imports' and the inspections' latest time and count). A run's sitemap entries no
 * longer change once it is settled, so only new data changes its gap: the site page, polled every few
 * seconds, then costs one small query per run instead of a join over each run's entries. */
const gapCache = new Map<string, { version: string; percent: number | null }>();
const GAP_CACHE_MAX = 2000;

async function gapPercentOf(auditId: string, version: string): Promise<number | null> {
  const cached = gapCache.get(auditId);
  if (cached?.version === version) return cached.percent;
  const { sitemaps } = await sitemapGaps(auditId);
  const submitted = sitemaps.reduce((sum, file) => sum + file.submitted, 0);
  const notIndexed = sitemaps.reduce((sum, file) => sum + file.notIndexed, 0);
  const known = sitemaps.reduce((sum, file) => sum + file.indexed + file.notIndexed, 0);
  // Too little known to judge (the gap table's "not enough data" band): a run whose imports name a
  // handful of its URLs would plot a near-0 % gap that reads as healthy, so it gets no point at all.
  const thin = known < MIN_KNOWN_SHARE * submitted;
  const percent = submitted > 0 && !thin ? Math.round((notIndexed / submitted) * 1000) / 10 : null;
  gapCache.delete(auditId);
  gapCache.set(auditId, { version, percent });
  // A Map iterates in insertion order: the first key is the least recently computed.
  if (gapCache.size > GAP_CACHE_MAX) gapCache.delete(gapCache.keys().next().value as string);
  return percent;
}

/** The runs' figures: their lists per reason, change counts and (for the newest with an import) the gap. */
async function runsOf(ids: string[]): Promise<Map<string, SiteRunDto>> {
  const out = new Map<string, SiteRunDto>();
  if (ids.length === 0) return out;
  const [runs, counts, changes, gsc, spot] = await Promise.all([
    pool().query<RunRow>(
      `SELECT id, name, status::text AS status, trigger, rerun_of, crawl_repeat_of, created_at, finished_at,
              sitemap_unique_urls AS declared, reused_files, reconciled_at IS NOT NULL AS reconciled
         FROM audits WHERE id = ANY($1::uuid[])`,
      [ids],
    ),
    pool().query<{ audit_id: string; list: string; reason: string; n: number }>(
      `SELECT audit_id, list, reason, sum(n)::int AS n FROM finding_counts
        WHERE audit_id = ANY($1::uuid[]) GROUP BY audit_id, list, reason`,
      [ids],
    ),
    pool().query<{ audit_id: string; type: keyof ChangeCounts; n: number }>(
      `SELECT audit_id, type, count(*)::int AS n FROM site_changes
        WHERE audit_id = ANY($1::uuid[]) GROUP BY audit_id, type`,
      [ids],
    ),
    pool().query<{ audit_id: string; version: string }>(
      `SELECT a.id AS audit_id,
              (SELECT coalesce(max(g.finished_at)::text, '') || ':' || count(*) FROM gsc_imports g
                WHERE g.audit_id = a.id AND g.status = 'succeeded') || '|' ||
              (SELECT coalesce(max(i.inspected_at)::text, '') || ':' || count(*) FROM gsc_inspections i
                WHERE i.audit_id = a.id AND i.state IS NOT NULL) AS version
         FROM audits a
        WHERE a.id = ANY($1::uuid[])
          AND (EXISTS (SELECT 1 FROM gsc_imports g WHERE g.audit_id = a.id AND g.status = 'succeeded')
               OR EXISTS (SELECT 1 FROM gsc_inspections i WHERE i.audit_id = a.id AND i.state IS NOT NULL))
        ORDER BY a.created_at DESC LIMIT ${GAP_RUNS}`,
      [ids],
    ),
    pool().query<{ audit_id: string; value: number | null; n: number | null }>(
      `SELECT DISTINCT ON (audit_id) audit_id,
              (summary -> 'rotRate' ->> 'value')::float8 AS value, (summary -> 'rotRate' ->> 'n')::int AS n
         FROM spot_check_runs
        WHERE audit_id = ANY($1::uuid[]) AND status IN ('succeeded', 'partial') AND summary IS NOT NULL
        ORDER BY audit_id, finished_at DESC NULLS LAST, created_at DESC`,
      [ids],
    ),
  ]);
  const spotChecks = new Map(
    spot.rows.map((row) => [
      row.audit_id,
      { rotPercent: row.value === null ? null : Math.round(row.value * 1000) / 10, checked: row.n ?? 0 },
    ]),
  );
  const gaps = new Map<string, number | null>();
  await Promise.all(
    gsc.rows.map(async ({ audit_id, version }) => {
      gaps.set(audit_id, await gapPercentOf(audit_id, version));
    }),
  );
  for (const run of runs.rows) {
    const lists: { prune: ListCounts; add: ListCounts; held: ListCounts } = {
      prune: { total: 0, byReason: {} },
      add: { total: 0, byReason: {} },
      held: { total: 0, byReason: {} },
    };
    out.set(run.id, {
      id: run.id,
      name: run.name,
      status: run.status,
      complete: run.status === 'succeeded',
      trigger: (['rerun', 'schedule'].includes(run.trigger) ? run.trigger : 'manual') as RunTrigger,
      rerunOf: run.rerun_of,
      crawlRepeatOf: run.crawl_repeat_of,
      createdAt: run.created_at.toISOString(),
      finishedAt: run.finished_at?.toISOString() ?? null,
      declaredUrls: run.declared,
      reusedFiles: run.reused_files,
      findings: run.reconciled ? lists : null,
      gapPercent: gaps.get(run.id) ?? null,
      spotCheck: spotChecks.get(run.id) ?? null,
      changes: emptyChanges(),
    });
  }
  for (const row of counts.rows) {
    const findings = out.get(row.audit_id)?.findings;
    const list = findings?.[row.list as keyof typeof findings];
    if (!list) continue;
    list.total += row.n;
    list.byReason[row.reason] = (list.byReason[row.reason] ?? 0) + row.n;
  }
  for (const row of changes.rows) {
    const run = out.get(row.audit_id);
    if (run) run.changes[row.type] = row.n;
  }
  return out;
}

function toSiteDto(row: SiteRow, latest: SiteRunDto | null): SiteDto {
  return {
    id: row.id,
    host: row.host,
    name: row.name,
    settings: siteSettingsOf(row.settings),
    createdAt: row.created_at.toISOString(),
    lastCompleteAuditId: row.last_complete_audit_id,
    runCount: row.run_count,
    activeRun: row.active_id && row.active_status ? { id: row.active_id, status: row.active_status } : null,
    latestRun: latest,
    schedules: row.schedules,
    webhooks: row.webhooks,
  };
}

/** Sites by host, searched by host or name (`%` and `_` literal), a page at a time (cursor: the last host). */
export async function listSites(query: TSiteListQuery): Promise<SitePage> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.q) {
    params.push(`%${likeEscape(query.q)}%`);
    where.push(`(s.host ILIKE $${params.length} OR s.name ILIKE $${params.length})`);
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM sites s ${filter}`, params);
  if (query.cursor) {
    params.push(query.cursor);
    where.push(`s.host > $${params.length}`);
  }
  params.push(query.limit + 1);
  const { rows } = await pool().query<SiteRow>(
    `SELECT ${SITE_COLUMNS} FROM sites s ${ACTIVE_JOIN}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY s.host LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, query.limit);
  const latest = await runsOf(page.map((row) => row.latest_id).filter((id): id is string => id !== null));
  return {
    items: page.map((row) => toSiteDto(row, row.latest_id ? (latest.get(row.latest_id) ?? null) : null)),
    total: total.rows[0]?.n ?? 0,
    nextCursor: rows.length > query.limit ? (page[page.length - 1]?.host ?? null) : null,
  };
}

/** One site with its newest runs (at most SITE_RUNS_SHOWN); null when there is no such site. */
export async function getSite(id: string): Promise<SiteDetailDto | null> {
  const { rows } = await pool().query<SiteRow>(
    `SELECT ${SITE_COLUMNS} FROM sites s ${ACTIVE_JOIN} WHERE s.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const ids = await pool().query<{ id: string }>(
    `SELECT id FROM audits WHERE site_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${SITE_RUNS_SHOWN}`,
    [id],
  );
  const runs = await runsOf(ids.rows.map((r) => r.id));
  const ordered = ids.rows.map((r) => runs.get(r.id)).filter((run): run is SiteRunDto => run !== undefined);
  return { ...toSiteDto(row, ordered[0] ?? null), runs: ordered };
}

/** The site's newest audit (what Run again and a schedule repeat by default). */
export async function latestAuditOfSite(siteId: string): Promise<string | null> {
  const { rows } = await pool().query<{ id: string }>(
    'SELECT id FROM audits WHERE site_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [siteId],
  );
  return rows[0]?.id ?? null;
}

export async function siteExists(id: string): Promise<boolean> {
  const { rows } = await pool().query('SELECT 1 FROM sites WHERE id = $1', [id]);
  return rows.length > 0;
}
