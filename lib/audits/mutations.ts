// Writes on audits outside their run's state: create (with its sources), settings, delete, and the files an
// audit that failed leaves unfinished.
import 'server-only';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { db, pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { dropAuditTables } from '@/lib/db/partitions';
import type { PrismaClient } from '@/lib/generated/prisma/client';
import type { TAuditOptions, TAuditSettings } from './schema';

export interface NewSource {
  role: 'sitemap' | 'crawl';
  kind: 'upload' | 'url';
  url?: string;
  fileName?: string;
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

/** Merges `settings` into the audit's (keys not given keep their value); false when there is no such audit. */
export async function updateAuditSettings(id: string, settings: Partial<TAuditSettings>): Promise<boolean> {
  const { rowCount } = await pool().query(
    'UPDATE audits SET settings = settings || $2::jsonb, updated_at = now() WHERE id = $1',
    [id, JSON.stringify(settings)],
  );
  return (rowCount ?? 0) > 0;
}

/** When an audit fails, the sitemap files it was still reading are marked as never finished. */
export async function markUnfinishedFilesFailed(client: pg.PoolClient, auditId: string): Promise<void> {
  await client.query(
    `UPDATE sitemap_files SET status = 'failed', error_code = 'interrupted', error_message = 'Not finished: the ingest failed'
      WHERE audit_id = $1 AND status = 'pending'`,
    [auditId],
  );
}

/** Deletes an audit, its bulk rows (its own partitions), its findings and decisions, and its uploaded
 * files. */
export async function deleteAudit(id: string): Promise<boolean> {
  const { count } = await db().audit.deleteMany({ where: { id } });
  // The web server's role may not drop tables: an owner's function drops those of an audit that is gone.
  if (count > 0) await dropAuditTables(id);
  await rm(path.join(uploadsDir(), id), { recursive: true, force: true });
  return count > 0;
}
