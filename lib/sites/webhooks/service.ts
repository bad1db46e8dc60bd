// A site's webhooks: created by admins (the URL checked, the secret kept and never shown again) and told of
// every finished run of their site. The announcement is serialized once and stored, so every attempt
// sends the same bytes under the same signature.
import 'server-only';
import { AppError } from '@/lib/errors';
import { sendJob } from '@/lib/jobs/queue';
import { siteExists } from '../data';
import { type RunCompletedPayload, type WebhookDto, ZWebhookInput } from '../schema';
import { finishedRunFacts } from './data';
import { insertDeliveries, insertWebhook } from './mutations';

const RUN_COMPLETED = 'run.completed';

/** An absolute http(s) URL without credentials (where it may point is lib/net's to judge at each send:
 * a name can resolve elsewhere later). */
function webhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('validation_failed', 'url: must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('validation_failed', `url: must be http:// or https://, not ${url.protocol}//`);
  }
  if (url.username || url.password) {
    throw new AppError(
      'validation_failed',
      'url: must not carry a user name or password (the signature authenticates the sender)',
    );
  }
  url.hash = '';
  return url.toString();
}

export async function createWebhook(siteId: string, body: unknown, createdBy: string): Promise<WebhookDto> {
  const input = ZWebhookInput.parse(body);
  const url = webhookUrl(input.url);
  if (!(await siteExists(siteId))) throw new AppError('not_found', 'No such site');
  return insertWebhook(siteId, url, input.secret, createdBy);
}

/** The delivery job's data: the delivery and the attempt the job is for. */
export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
}

export function queueDelivery(job: DeliveryJob, startAfter?: Date): Promise<void> {
  return sendJob('webhook-delivery', job, {
    singletonKey: `${job.deliveryId}:${job.attempt}`,
    ...(startAfter ? { startAfter } : {}),
  });
}

/** Tells the site's webhooks that the audit finished (any final status, cancelled included); nothing
 * when it belongs to no site or its site has no webhook. `unsettled`: only a failed or cancelled run — a
 * settled one (succeeded, partial) is announced by its site_history step, once its changes are written. */
export async function announceRunFinished(auditId: string, only: 'any' | 'unsettled' = 'any'): Promise<void> {
  const facts = await finishedRunFacts(auditId);
  if (!facts) return;
  if (only === 'unsettled' && (facts.run.status === 'succeeded' || facts.run.status === 'partial')) return;
  const origin = process.env.PUBLIC_URL?.trim().replace(/\/+$/, '');
  const payload: RunCompletedPayload = {
    ...facts,
    run: { ...facts.run, url: origin ? `${origin}${facts.run.url}` : facts.run.url },
    sentAt: new Date().toISOString(),
  };
  const ids = await insertDeliveries(facts.site.id, auditId, RUN_COMPLETED, JSON.stringify(payload));
  for (const deliveryId of ids) await queueDelivery({ deliveryId, attempt: 1 });
}
