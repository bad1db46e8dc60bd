import type { Sendable } from '@/lib/client/api';
import { AppError } from '@/lib/core/errors';
import { idParam } from '@/lib/core/params';
import { guarded, json } from '@/lib/server/respond';
import { serialIdParam } from '@/lib/sites/schedules/service';
import type { WebhookDto } from '@/lib/sites/schema';
import { listWebhooks } from '@/lib/sites/webhooks/data';
import { resumePausedWebhook } from '@/lib/sites/webhooks/service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; webhookId: string }> };

/** Lifts a pause: the held deliveries are sent now. Answers the webhook as the list shows it. */
export const POST = guarded('admin', async (_request: Request, { params }: Context) => {
  const { id, webhookId } = await params;
  const siteId = idParam(id, 'site');
  const hook = serialIdParam(webhookId, 'webhook');
  await resumePausedWebhook(siteId, hook);
  const webhook = (await listWebhooks(siteId)).find((w) => w.id === hook);
  if (!webhook) throw new AppError('not_found', 'No such webhook');
  return json(webhook satisfies Sendable<WebhookDto>);
});
