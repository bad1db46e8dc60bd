import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { getSite } from '@/lib/sites/data';
import { updateSite } from '@/lib/sites/mutations';
import { type SiteDetailDto, ZSitePatch } from '@/lib/sites/schema';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = guarded('viewer', async (_request: Request, { params }: Context) => {
  const site = await getSite(idParam((await params).id, 'site'));
  if (!site) throw new AppError('not_found', 'No such site');
  return json(site satisfies Sendable<SiteDetailDto>);
});

/** Renames the site or changes its settings (admins: a setting changes what reviewers may approve). */
export const PATCH = guarded('admin', async (request: Request, { params }: Context) => {
  const id = idParam((await params).id, 'site');
  const patch = ZSitePatch.parse(await jsonBody(request));
  if (!(await updateSite(id, patch))) throw new AppError('not_found', 'No such site');
  const site = await getSite(id);
  if (!site) throw new AppError('not_found', 'No such site');
  return json(site satisfies Sendable<SiteDetailDto>);
});
