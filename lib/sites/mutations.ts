// Writes of sites: runs one at a time per site, and a site's name and settings. (An audit joins its site
// in lib/audits/mutations.ts.)
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { db, pool } from '@/lib/db/client';
import type { PrismaClient } from '@/lib/generated/prisma/client';
import type { TSiteSettings } from './schema';

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
