// The job queues' names. pg-boss makes a table per queue, which the app's roles may not create, so the
// database's owner installs them at setup (roles.ts) with the rest of the schema: the names belong to the
// schema, and lib/queue (the transport) takes them from here.

export const QUEUES = [
  'ingest',
  'add-crawl',
  'crawl-site',
  'reconcile',
  'site-history',
  'index-findings',
  'spot-check-select',
  'spot-check',
  'gsc-import',
  'gsc-inspection-select',
  'gsc-inspection',
  'lint',
  // Not steps of runs: the scheduler's once-a-minute tick, and the webhook dispatcher's wake-up (the
  // deliveries themselves are rows: lib/sites/jobs/webhook-dispatch.ts).
  'site-schedules',
  'webhook-delivery',
] as const;
export type QueueName = (typeof QUEUES)[number];

/** pg-boss's own queue through which a cron schedule's jobs are sent (timekeeper.js, QUEUES.SEND_IT). A
 * worker's pg-boss creates it at start, but the app's roles may not create queues (a table each), so the
 * owner installs it with ours (roles.ts). Without it the cron's jobs vanished without an error:
 * pg-boss inserts into a missing queue as into nothing, and no schedule ever fired. */
export const CRON_QUEUE = '__pgboss__send-it';
