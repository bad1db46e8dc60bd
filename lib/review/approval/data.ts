// The approval settings in force for an audit: its own and its site's.
import 'server-only';
import { pool } from '@/lib/db/client';
import { settingsOf, siteSettingsOf, type TAuditSettings } from './schema';

/** Whether the audit's site allows approving unreached_by_crawl rows only once confirmed across two crawls
 * (false for an audit without a site). */
export async function requiresConfirmedUnreached(auditId: string): Promise<boolean> {
  const { rows } = await pool().query<{ settings: unknown }>(
    'SELECT s.settings FROM audits a JOIN sites s ON s.id = a.site_id WHERE a.id = $1',
    [auditId],
  );
  return rows[0] ? siteSettingsOf(rows[0].settings).requireConfirmedUnreached : false;
}

export async function auditSettingsOf(id: string): Promise<TAuditSettings | null> {
  const { rows } = await pool().query<{ settings: unknown }>('SELECT settings FROM audits WHERE id = $1', [
    id,
  ]);
  return rows[0] ? settingsOf(rows[0].settings) : null;
}
