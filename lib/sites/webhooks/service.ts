// A site's webhooks: created by admins (the URL checked, the secret sealed and never shown again) and told
// of every finished run of their site. The announcement is serialized once and stored, so every attempt
// sends the same bytes (signed with the time of each attempt); the worker's dispatcher sends them.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { announceJob } from '@/lib/queue/wake';
import { siteExists } from '../data';
import { type RunCompletedPayload, type WebhookDto, ZWebhookInput } from '../schema';
import { finishedRunFacts } from './data';
import { insertDeliveries, insertWebhook, resumeWebhook } from './mutations';
import { maxPendingDeliveries } from './settings';

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

/** The queue the worker's delivery dispatcher is woken on (lib/sites/jobs/webhook-dispatch.ts): the rows are the
 * queue, the notice only says "look now". */
export const DELIVERY_QUEUE = 'webhook-delivery';

export async function resumePausedWebhook(siteId: string, id: number): Promise<void> {
  if (!(await resumeWebhook(siteId, id))) throw new AppError('not_found', 'No such webhook');
  await wakeDispatcher();
}

function wakeDispatcher(): Promise<void> {
  return announceJob(DELIVERY_QUEUE).catch((error: Error) =>
    console.error(
      `[webhooks] could not wake the delivery dispatcher (it finds them by polling): ${error.message}`,
    ),
  );
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
  const made = await insertDeliveries(
    facts.site.id,
    auditId,
    RUN_COMPLETED,
    JSON.stringify(payload),
    maxPendingDeliveries(),
  );
  for (const { webhookId, ids } of made.dropped) {
    console.warn(
      `[webhooks] webhook ${webhookId}: dropped ${ids.length} unsent deliveries (${ids.join(', ')}): more than ${maxPendingDeliveries()} were pending (WEBHOOK_MAX_PENDING)`,
    );
  }
  if (made.ids.length > 0) await wakeDispatcher();
}
