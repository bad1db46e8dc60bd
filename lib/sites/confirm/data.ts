// The site rule on approving unreached rows, read for an audit: its site's requireConfirmedUnreached.
import 'server-only';
import { pool } from '@/lib/db/client';
import { siteSettingsOf } from '../schema';

/** Whether the audit's site allows approving unreached_by_crawl rows only once confirmed across two crawls
 * (false for an audit without a site). */
export async function requiresConfirmedUnreached(auditId: string): Promise<boolean> {
  const { rows } = await pool().query<{ settings: unknown }>(
    'SELECT s.settings FROM audits a JOIN sites s ON s.id = a.site_id WHERE a.id = $1',
    [auditId],
  );
  return rows[0] ? siteSettingsOf(rows[0].settings).requireConfirmedUnreached : false;
}
