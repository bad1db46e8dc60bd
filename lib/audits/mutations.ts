// Writes on audits that the web process makes: create (with its sources), delete.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { db, pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import type { TAuditOptions } from './schema';

export interface NewSource {
  role: 'sitemap' | 'crawl';
  kind: 'upload' | 'url';
  url?: string;
  fileName?: string;
  storedPath?: string;
  bytes?: number;
}

export async function insertAudit(id: string, name: string, options: TAuditOptions, sources: NewSource[]) {
  return db().audit.create({
    data: {
      id,
      name,
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

export async function markAuditFailed(id: string, message: string): Promise<void> {
  await db().audit.update({
    where: { id },
    data: { status: 'failed', phase: 'failed', errorMessage: message, finishedAt: new Date() },
  });
}

/** Deletes an audit, its bulk rows (which have no foreign keys) and its uploaded files. */
export async function deleteAudit(id: string): Promise<boolean> {
  const client = await pool().connect();
  let deleted = false;
  try {
    await client.query('BEGIN');
    const { rowCount } = await client.query('DELETE FROM audits WHERE id = $1', [id]);
    deleted = (rowCount ?? 0) > 0;
    if (deleted) {
      await client.query('DELETE FROM sitemap_entries WHERE audit_id = $1', [id]);
      await client.query('DELETE FROM crawl_pages WHERE audit_id = $1', [id]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  await rm(path.join(uploadsDir(), id), { recursive: true, force: true });
  return deleted;
}
