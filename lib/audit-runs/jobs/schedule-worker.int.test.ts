// A worker process for real: it registers the one pg-boss cron schedule of the site schedules' tick, the
// tick starts a due schedule's run, the worker runs it, and the site's webhook receives the signed
// run.completed of that scheduled run.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAudit, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { readAll, startTestServer, type TestServer } from '@/lib/net/test-server';
import { getBoss, sendJob, stopBoss } from '@/lib/queue/queue';
import type { RunCompletedPayload } from '@/lib/sites/schema';
import { insertWebhook } from '@/lib/sites/webhooks/mutations';
import { urlsetXml } from '@/lib/test-support/run-audit';
import { SCHEDULE_TICK } from '@/lib/worker/worker';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const SECRET = 'the scheduled run secret';
let server: TestServer;
const hooks: { signature: string | undefined; body: Buffer }[] = [];
let worker: ChildProcess | null = null;
let output = '';

beforeAll(async () => {
  server = await startTestServer(async (req, res) => {
    const body = await readAll(req);
    if (req.url === '/hook') {
      hooks.push({ signature: req.headers['x-sitemap-audit-signature'] as string | undefined, body });
      res.writeHead(200).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(urlsetXml([`${server.origin}/a`, `${server.origin}/b`]));
  });
});

afterAll(async () => {
  worker?.kill('SIGKILL');
  await stopBoss();
  await server.close();
});

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 45_000) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; worker output:\n${output}`);
}

describe('a worker', () => {
  it('registers the schedules tick, starts a due schedule’s run, and the run’s webhook is told', async () => {
    const host = `127.0.0.1:${server.port}`;
    const siteId = await siteIdForHost(host);
    const previous = randomUUID();
    await insertAudit(previous, 'the first run', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${server.origin}/sitemap.xml` },
    ]);
    await pool().query(`UPDATE audits SET site_id = $2, status = 'succeeded' WHERE id = $1`, [
      previous,
      siteId,
    ]);
    await insertWebhook(siteId, `${server.origin}/hook`, SECRET, 'test');
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO site_schedules (site_id, cadence, cron, timezone, next_run_at, created_by)
       VALUES ($1, 'cron', '*/5 * * * *', 'UTC', now() - interval '1 minute', 'test') RETURNING id`,
      [siteId],
    );
    const scheduleId = rows[0]?.id;

    worker = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
      cwd: root,
      // The suite's other files leave jobs in the shared queues (their audits run inline); with one slot
      // per queue this worker would take them first and the scheduled run would wait behind them.
      env: {
        ...process.env,
        ...WORKER_ENV,
        ALLOW_PRIVATE_NETWORK: 'true',
        SCHEDULER_MONITOR_SECONDS: '1',
        WORKER_CONCURRENCY: '4',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.on('data', (d) => {
      output += String(d);
    });
    worker.stderr?.on('data', (d) => {
      output += String(d);
    });
    await waitFor('the worker to be ready', async () => output.includes('worker ready'));

    const schedules = await (await getBoss()).getSchedules();
    expect(schedules.find((s) => s.name === SCHEDULE_TICK.queue)).toMatchObject({
      name: 'site-schedules',
      cron: '* * * * *',
      timezone: 'UTC',
    });
    // The cron sends one tick a minute, through pg-boss's own queue (the worker's role may write it); another
    // worker of the suite may have sent this minute's already, so the test also sends one by hand, with a
    // singleton key the cron's never have.
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await sendJob(SCHEDULE_TICK.queue, {}, { singletonKey: randomUUID() });
    await waitFor('the cron to send its tick', async () => {
      const r = await pool().query(
        `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key IS NULL AND created_on >= $2`,
        [SCHEDULE_TICK.queue, minute],
      );
      return r.rows.length > 0;
    });

    const started = await waitFor('the schedule to start a run', async () => {
      const r = await pool().query('SELECT last_audit_id, last_skip FROM site_schedules WHERE id = $1', [
        scheduleId,
      ]);
      return r.rows[0]?.last_audit_id as string | null;
    });
    const audit = await waitFor('the scheduled run to finish', async () => {
      const r = await pool().query(
        `SELECT status, trigger, schedule_id, rerun_of FROM audits WHERE id = $1 AND finished_at IS NOT NULL`,
        [started],
      );
      return r.rows[0];
    });
    expect(audit).toMatchObject({
      status: 'succeeded',
      trigger: 'schedule',
      schedule_id: scheduleId,
      rerun_of: previous,
    });

    const hook = await waitFor('the webhook to be told', async () =>
      hooks.find((h) => (JSON.parse(h.body.toString('utf8')) as RunCompletedPayload).run.id === started),
    );
    const [, t, v1] = /^t=([0-9]+),v1=([0-9a-f]{64})$/.exec(String(hook.signature)) ?? [];
    expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.`).update(hook.body).digest('hex'));
    expect(JSON.parse(hook.body.toString('utf8'))).toMatchObject({
      site: { id: siteId, host },
      run: { trigger: 'schedule', status: 'succeeded', complete: true, declaredUrls: 2 },
    });
    worker.kill('SIGTERM');
  }, 90_000);
});
