// Writes of sites: the site of a host (created on first sight) and an audit's membership.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { db, pool } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import type { PrismaClient } from '@/lib/generated/prisma/client';
import { siteHostOf } from './host';
import type { TSiteSettings } from './schema';

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

/** Inserts a run of a site unless one of its audits is still queued or running (one at a time per site:
 * schedules and Run again). The check and the insert hold the site's row lock, so two requests at once
 * cannot both pass. Throws a 409 AppError naming the run in progress. */
export async function insertSiteRun(
  siteId: string,
  insert: (prisma: Pick<PrismaClient, 'audit'>) => Promise<unknown>,
): Promise<void> {
  await db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM sites WHERE id = ${siteId}::uuid FOR UPDATE`;
    if (locked.length === 0) throw new AppError('not_found', 'No such site');
    const active = await tx.audit.findFirst({
      where: { siteId, status: { in: ['queued', 'running'] } },
      select: { id: true, name: true },
      orderBy: { createdAt: 'desc' },
    });
    if (active) {
      throw new AppError(
        'conflict',
        `A run of this site is still going ("${active.name}", ${active.id}); one run at a time per site`,
      );
    }
    await insert(tx);
  });
}

/** Merges `settings` into the site's and renames it; false when there is no such site. */
export async function updateSite(
  id: string,
  patch: { name?: string; settings?: Partial<TSiteSettings> },
): Promise<boolean> {
  const { rowCount } = await pool().query(
    `UPDATE sites SET name = COALESCE($2, name), settings = settings || $3::jsonb, updated_at = now()
      WHERE id = $1`,
    [id, patch.name ?? null, JSON.stringify(patch.settings ?? {})],
  );
  return (rowCount ?? 0) > 0;
}
