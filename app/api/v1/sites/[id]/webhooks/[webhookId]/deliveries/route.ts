import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, limitParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { serialIdParam } from '@/lib/sites/schedules/service';
import type { DeliveryPage } from '@/lib/sites/schema';
import { listDeliveries, webhookExists } from '@/lib/sites/webhooks/data';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; webhookId: string }> };

const CURSOR = /^[0-9]{1,18}$/;

/** The webhook's deliveries, newest first (`?limit=` 1–100, default 25; `?cursor=` a page's nextCursor). */
export const GET = guarded('admin', async (request: Request, { params }: Context) => {
  const { id, webhookId } = await params;
  const siteId = idParam(id, 'site');
  const hook = serialIdParam(webhookId, 'webhook');
  const search = new URL(request.url).searchParams;
  const limit = limitParam(search.get('limit'), 25, 100);
  const cursor = search.get('cursor') || undefined;
  if (cursor !== undefined && !CURSOR.test(cursor))
    throw new AppError('validation_failed', 'cursor is not valid');
  if (!(await webhookExists(siteId, hook))) throw new AppError('not_found', 'No such webhook');
  const page = await listDeliveries(hook, { limit, cursor });
  return json(page satisfies Sendable<DeliveryPage>);
});
