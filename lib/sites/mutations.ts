// Writes of sites: the site of a host (created on first sight) and an audit's membership.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import { siteHostOf } from './host';

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
