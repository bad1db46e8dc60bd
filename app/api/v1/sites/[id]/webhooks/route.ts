import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam, jsonBody } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { siteExists } from '@/lib/sites/data';
import type { WebhookDto } from '@/lib/sites/schema';
import { listWebhooks } from '@/lib/sites/webhooks/data';
import { createWebhook } from '@/lib/sites/webhooks/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** Admins only: where a site's news goes is an admin's business (the secrets are never shown to anyone). */
export const GET = guarded('admin', async (_request: Request, { params }: Context) => {
  const id = idParam((await params).id, 'site');
  if (!(await siteExists(id))) throw new AppError('not_found', 'No such site');
  const items = await listWebhooks(id);
  return json({ items } satisfies Sendable<{ items: WebhookDto[] }>);
});

export const POST = guarded('admin', async (request: Request, { params }: Context, actor) => {
  const id = idParam((await params).id, 'site');
  const webhook = await createWebhook(id, await jsonBody(request), actor.name);
  return json(webhook satisfies Sendable<WebhookDto>, { status: 201 });
});
