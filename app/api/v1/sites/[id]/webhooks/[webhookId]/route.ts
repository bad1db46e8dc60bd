import { AppError } from '@/lib/core/errors';
import { idParam } from '@/lib/core/params';
import { guarded } from '@/lib/server/respond';
import { serialIdParam } from '@/lib/sites/schedules/service';
import { deleteWebhook } from '@/lib/sites/webhooks/mutations';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string; webhookId: string }> };

/** Its delivery log goes with it; attempts still queued then find nothing to send. */
export const DELETE = guarded('admin', async (_request: Request, { params }: Context) => {
  const { id, webhookId } = await params;
  if (!(await deleteWebhook(idParam(id, 'site'), serialIdParam(webhookId, 'webhook')))) {
    throw new AppError('not_found', 'No such webhook');
  }
  return new Response(null, { status: 204 });
});
