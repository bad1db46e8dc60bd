// URL Inspection end to end: the key set through the credentials routes (sealed at rest, never answered),
// runs started through the POST route and run through the real step runner against a fake Google on
// 127.0.0.1 — a sample spread across sitemap files, the day's quota spent (waiting_for_quota, the step
// re-queued for the next Pacific midnight), resumed on the next day without repeating a URL, Google's
// quota answer (429 RESOURCE_EXHAUSTED: not one call after it, then resumed), a cancel
// while waiting, a revoked key, a key refused at inspect, and a changed GSC_CREDENTIALS_KEY.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DELETE as deleteKey,
  GET as getKey,
  PUT as putKey,
} from '@/app/api/v1/audits/[id]/gsc/credentials/route';
import { POST as cancelRoute } from '@/app/api/v1/audits/[id]/gsc/inspections/[runId]/cancel/route';
import { GET as getRun } from '@/app/api/v1/audits/[id]/gsc/inspections/[runId]/route';
import { GET as listRuns, POST as startRoute } from '@/app/api/v1/audits/[id]/gsc/inspections/route';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { GSC_INSPECTION_PHASES, GSC_INSPECTION_STEPS, type GscInspectionStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { type FakeAnswer, type FakeGoogle, indexedAnswer, startFakeGoogle } from './inspection-fake-google';
import { gscInspectionRun } from './inspection-run';
import type { GscInspectionRunDto, GscInspectionRunPage } from './inspection-schema';
import { inspectionClock } from './inspection-service';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PEM_LINE = PEM.split('\n')[1] as string;
const SECRET = randomBytes(32).toString('base64');
const EMAIL = 'inspector@audit-project.iam.gserviceaccount.com';
const keyJson = {
  type: 'service_account',
  project_id: 'audit-project',
  private_key_id: 'k-1',
  private_key: PEM,
  client_email: EMAIL,
  token_uri: 'https://oauth2.googleapis.com/token',
};

let google: FakeGoogle;
let auditId = '';
let admin: TestCaller;
let reviewer: TestCaller;
let viewer: TestCaller;
/** path → scripted answers, in order (then indexed) */
const script = new Map<string, FakeAnswer[]>();
const A = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].map((p) => `https://shop.example/${p}`);
const B = ['b1', 'b2'].map((p) => `https://shop.example/${p}`);

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const base = () => `http://localhost/api/v1/audits/${auditId}/gsc`;
const step = (name: GscInspectionStep, runId: string) =>
  runStep(gscInspectionRun, name, { runId, attempt: 1 });

async function setKey(property: string, key: unknown = keyJson, caller = admin): Promise<Response> {
  return putKey(
    caller.request(`${base()}/credentials`, { method: 'PUT', body: JSON.stringify({ property, key }) }),
    ctx({ id: auditId }),
  );
}

/** A fresh property per test: the quota is counted per property and day. */
async function freshProperty(): Promise<string> {
  const property = `sc-domain:p${randomUUID().slice(0, 8)}.example`;
  const res = await setKey(property);
  expect(res.status, await res.clone().text()).toBe(200);
  return property;
}

async function start(body: unknown, caller = reviewer): Promise<Response> {
  return startRoute(
    caller.request(`${base()}/inspections`, { method: 'POST', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
}

async function started(body: unknown): Promise<string> {
  const res = await start(body);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

async function runPage(runId: string, query = ''): Promise<{ page: GscInspectionRunPage; text: string }> {
  const res = await getRun(
    viewer.request(`${base()}/inspections/${runId}${query}`),
    ctx({ id: auditId, runId }),
  );
  expect(res.status).toBe(200);
  const text = await res.text();
  return { page: JSON.parse(text), text };
}

/** What the fake was asked for this property, in order. */
const askedFor = (property: string) =>
  google.inspected.filter((c) => c.siteUrl === property).map((c) => c.url);

beforeAll(async () => {
  google = await startFakeGoogle({
    publicKey,
    clientEmail: EMAIL,
    inspect: (url) => script.get(new URL(url).pathname)?.shift() ?? indexedAnswer(url),
  });
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  vi.stubEnv('GOOGLE_OAUTH_TOKEN_URL', google.tokenUrl);
  vi.stubEnv('GSC_API_BASE_URL', google.apiBase);
  vi.stubEnv('GSC_INSPECTION_RATE', '1000');
  vi.stubEnv('GSC_CREDENTIALS_KEY', SECRET);
  auditId = await reconciledAuditOf('URL inspection', {
    sitemaps: { 'a.xml': urlsetXml(A), 'b.xml': urlsetXml(B) },
    crawl: [...A, ...B].map((url) =>
      JSON.stringify({ url, status: 200, crawled_at: '2026-11-01T00:00:00Z' }),
    ),
  });
  admin = await testCaller('admin');
  reviewer = await testCaller('reviewer');
  viewer = await testCaller('viewer');
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
  vi.stubEnv('GSC_INSPECTION_DAILY_QUOTA', '2000');
  script.clear();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await google.close();
  await stopBoss();
});

describe('gsc_inspection runs', () => {
  it('has CHECKs listing exactly its steps and phases', async () => {
    const { rows } = await pool().query<{ conname: string; def: string }>(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname IN ('gsc_inspection_runs_step_check', 'gsc_inspection_runs_phase_check')`,
    );
    const listed = (name: string) =>
      [...(rows.find((r) => r.conname === name)?.def.matchAll(/'([a-z_]+)'/g) ?? [])].map((m) => m[1]).sort();
    expect(listed('gsc_inspection_runs_step_check')).toEqual([...GSC_INSPECTION_STEPS].sort());
    expect(listed('gsc_inspection_runs_phase_check')).toEqual([...GSC_INSPECTION_PHASES].sort());
  });

  it('keeps the key sealed: admins set it, the API shows its property and email only', async () => {
    expect((await setKey('sc-domain:shop.example', keyJson, reviewer)).status).toBe(403);
    const wrong = await setKey('sc-domain:shop.example', { ...keyJson, type: 'authorized_user' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      'key: "type" must be "service_account"; found "authorized_user"',
    );

    const res = await setKey('sc-domain:shop.example', JSON.stringify(keyJson));
    expect(res.status).toBe(200);
    const shown = await res.text();
    expect(JSON.parse(shown)).toEqual({
      property: 'sc-domain:shop.example',
      clientEmail: EMAIL,
      createdAt: expect.any(String),
      createdBy: admin.name,
    });
    const got = await getKey(viewer.request(`${base()}/credentials`), ctx({ id: auditId }));
    const gotText = await got.text();
    for (const text of [shown, gotText]) {
      expect(text).not.toContain(PEM_LINE);
      expect(text).not.toContain('PRIVATE KEY');
    }
    const { rows } = await pool().query<{ bytes: Buffer }>(
      `SELECT ciphertext || iv || auth_tag AS bytes FROM gsc_credentials WHERE audit_id = $1`,
      [auditId],
    );
    const atRest = (rows[0] as { bytes: Buffer }).bytes.toString('latin1');
    expect(atRest).not.toContain(PEM_LINE);
    expect(atRest).not.toContain('PRIVATE KEY');
    expect(atRest).not.toContain(EMAIL);

    expect(
      (await deleteKey(viewer.request(`${base()}/credentials`, { method: 'DELETE' }), ctx({ id: auditId })))
        .status,
    ).toBe(403);
    expect(
      (await deleteKey(admin.request(`${base()}/credentials`, { method: 'DELETE' }), ctx({ id: auditId })))
        .status,
    ).toBe(204);
    expect((await getKey(viewer.request(`${base()}/credentials`), ctx({ id: auditId }))).status).toBe(404);
    // Without a key a run cannot start.
    const refused = await start({ sample: 2 });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('no Search Console key');
  });

  it('inspects a sample spread across the sitemap files and reads each answer', async () => {
    const property = await freshProperty();
    const runId = await started({ sample: 4, seed: 7 });
    await step('select', runId);
    const { rows: picked } = await pool().query<{ targets: { url: string }[] }>(
      'SELECT targets FROM gsc_inspection_runs WHERE id = $1',
      [runId],
    );
    const first = picked[0]?.targets[0]?.url ?? '';
    script.set(new URL(first).pathname, [
      { status: 429, body: { error: { message: 'slow down' } } },
      {
        status: 200,
        body: {
          inspectionResult: {
            indexStatusResult: {
              verdict: 'NEUTRAL',
              coverageState: 'Crawled - currently not indexed',
              googleCanonical: 'https://shop.example/a1',
              userCanonical: first,
              lastCrawlTime: '2026-11-02T03:04:05Z',
              sitemap: [],
            },
          },
        },
      },
    ]);
    await step('inspect', runId);
    const { page, text } = await runPage(runId);
    expect(page.status).toBe('succeeded');
    expect(page.summary).toMatchObject({ inspected: 4, errors: 0 });
    const urls = page.items.map((i) => i.url);
    // Both files are in the sample (b.xml has a quarter of the entries, so one of four), interleaved.
    expect(urls.filter((u) => B.includes(u))).toHaveLength(1);
    expect(new Set(page.items.slice(0, 2).map((i) => i.fileId)).size).toBe(2);
    // The first URL was asked twice (a 429, then the answer), the others once, in order.
    expect(askedFor(property)).toEqual([first, ...urls]);
    expect(page.items[0]).toMatchObject({
      url: first,
      state: 'not_indexed',
      bucket: 'crawled_not_indexed',
      coverageState: 'Crawled - currently not indexed',
      googleCanonical: 'https://shop.example/a1',
      userCanonical: first,
      lastCrawlTime: '2026-11-02T03:04:05.000Z',
    });
    expect(page.items.filter((i) => i.state === 'indexed')).toHaveLength(3);
    expect(page.summary?.byBucket).toEqual({ crawled_not_indexed: 1 });
    expect(text).not.toContain(PEM_LINE);
    // The same seed picks the same URLs.
    const again = await started({ sample: 4, seed: 7 });
    await step('select', again);
    const { rows } = await pool().query<{ targets: { url: string }[] }>(
      'SELECT targets FROM gsc_inspection_runs WHERE id = $1',
      [again],
    );
    expect((rows[0]?.targets ?? []).map((t) => t.url)).toEqual(urls);
    await cancelRoute(
      reviewer.request(`${base()}/inspections/${again}/cancel`, { method: 'POST' }),
      ctx({ id: auditId, runId: again }),
    );
  });

  it('waits for the next Pacific day when the quota is spent, then inspects exactly the rest', async () => {
    const property = await freshProperty();
    vi.stubEnv('GSC_INSPECTION_DAILY_QUOTA', '3');
    const day1 = new Date('2026-12-01T20:00:00Z'); // 12:00 in Los Angeles
    vi.spyOn(inspectionClock, 'now').mockReturnValue(day1);
    const refused = await start({ sample: 4 });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('at most 3 URLs');

    // Another run of the property spent one call of the day already.
    await pool().query(`INSERT INTO gsc_quota_usage (property, day, used) VALUES ($1, '2026-12-01', 1)`, [
      property,
    ]);
    const runId = await started({ sample: 3, seed: 1 });
    await step('select', runId);
    await step('inspect', runId);
    const waiting = (await runPage(runId)).page;
    expect(waiting).toMatchObject({
      status: 'running',
      phase: 'waiting_for_quota',
      resumeAt: '2026-12-02T08:00:00.000Z',
      progress: { done: 2, total: 3 },
    });
    expect(waiting.items).toHaveLength(2);
    expect(askedFor(property)).toHaveLength(2);
    const { rows: used } = await pool().query<{ used: number }>(
      'SELECT used FROM gsc_quota_usage WHERE property = $1',
      [property],
    );
    expect(used).toEqual([{ used: 3 }]);
    // The inspect step is queued again, not to start before the next Pacific midnight.
    const { rows: jobs } = await pool().query<{ startAfter: Date }>(
      `SELECT start_after AS "startAfter" FROM pgboss.job WHERE name = 'gsc-inspection' AND data->>'runId' = $1
        ORDER BY created_on DESC LIMIT 1`,
      [runId],
    );
    expect(jobs[0]?.startAfter.toISOString()).toBe('2026-12-02T08:00:00.000Z');
    const listed = await listRuns(viewer.request(`${base()}/inspections`), ctx({ id: auditId }));
    const runs = ((await listed.json()) as { runs: GscInspectionRunDto[] }).runs;
    expect(runs.find((r) => r.id === runId)?.phaseLabel).toBe("Waiting for the next day's inspection quota");

    // The next Pacific day: the job runs and finishes the one URL left.
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-02T08:00:01Z'));
    await step('inspect', runId);
    const { page } = await runPage(runId);
    expect(page).toMatchObject({ status: 'succeeded', resumeAt: null, progress: { done: 3, total: 3 } });
    expect(page.items.map((i) => i.position)).toEqual([0, 1, 2]);
    const asked = askedFor(property);
    expect(asked).toHaveLength(3);
    expect(new Set(asked).size).toBe(3);
    expect(asked).toEqual(page.items.map((i) => i.url));
  });

  it("stops calling at once on Google's 429 RESOURCE_EXHAUSTED, keeps what it got and resumes the next day", async () => {
    const property = await freshProperty();
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-03T18:00:00Z')); // 10:00 in Los Angeles
    const runId = await started({ sample: 6, seed: 11 });
    await step('select', runId);
    const { rows } = await pool().query<{ targets: { url: string }[] }>(
      'SELECT targets FROM gsc_inspection_runs WHERE id = $1',
      [runId],
    );
    const targets = (rows[0]?.targets ?? []).map((t) => t.url);
    expect(targets).toHaveLength(6);
    // The third URL gets Google's quota answer; had the run gone on, the others would be answered.
    const quota = {
      code: 429,
      message: "Quota exceeded for quota metric 'URL inspection requests' and limit 'per day per site'.",
      status: 'RESOURCE_EXHAUSTED',
    };
    script.set(new URL(targets[2] as string).pathname, [{ status: 429, body: { error: quota } }]);
    await step('inspect', runId);
    // Not one call after the 429: no retry, no next URL.
    expect(askedFor(property)).toEqual(targets.slice(0, 3));
    const { page } = await runPage(runId);
    expect(page).toMatchObject({
      status: 'running',
      phase: 'waiting_for_quota',
      resumeAt: '2026-12-04T08:00:00.000Z',
      progress: { done: 2, total: 6 },
      quotaStop: { status: 429, code: 'RESOURCE_EXHAUSTED', message: quota.message, limit: 'day' },
    });
    expect(page.items.map((i) => i.url)).toEqual(targets.slice(0, 2));
    // The property's day is spent for every run of it: another run waits without calling Google.
    const { rows: used } = await pool().query<{ used: number }>(
      `SELECT used FROM gsc_quota_usage WHERE property = $1 AND day = '2026-12-03'`,
      [property],
    );
    expect(used).toEqual([{ used: 2000 }]);
    const other = await started({ sample: 1 });
    await step('select', other);
    await step('inspect', other);
    expect((await runPage(other)).page.phase).toBe('waiting_for_quota');
    expect(askedFor(property)).toHaveLength(3);
    // Queued again for the next Pacific midnight, without any real wait.
    const { rows: jobs } = await pool().query<{ startAfter: Date }>(
      `SELECT start_after AS "startAfter" FROM pgboss.job WHERE name = 'gsc-inspection' AND data->>'runId' = $1
        ORDER BY created_on DESC LIMIT 1`,
      [runId],
    );
    expect(jobs[0]?.startAfter.toISOString()).toBe('2026-12-04T08:00:00.000Z');

    // The next Pacific day: the URL Google refused is asked again, then the rest, each once.
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-04T08:00:01Z'));
    await step('inspect', runId);
    const done = (await runPage(runId)).page;
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: 6, total: 6 }, resumeAt: null });
    expect(done.items.map((i) => i.url)).toEqual(targets);
    expect(askedFor(property)).toEqual([...targets.slice(0, 3), ...targets.slice(2)]);
    // Why it paused stays on the run.
    expect(done.quotaStop).toMatchObject({ limit: 'day', code: 'RESOURCE_EXHAUSTED' });
    await cancelRoute(
      reviewer.request(`${base()}/inspections/${other}/cancel`, { method: 'POST' }),
      ctx({ id: auditId, runId: other }),
    );
  });

  it("waits a minute on Google's per-minute quota answer, without spending the day", async () => {
    const property = await freshProperty();
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-03T18:00:00Z'));
    const runId = await started({ sample: 2, seed: 5 });
    await step('select', runId);
    const { rows } = await pool().query<{ targets: { url: string }[] }>(
      'SELECT targets FROM gsc_inspection_runs WHERE id = $1',
      [runId],
    );
    const first = new URL(rows[0]?.targets[0]?.url ?? 'about:blank').pathname;
    script.set(first, [
      {
        status: 429,
        body: {
          error: {
            code: 429,
            message: "Quota exceeded for limit 'URL inspection requests per minute per site'.",
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      },
    ]);
    await step('inspect', runId);
    expect(askedFor(property)).toHaveLength(1);
    const { page } = await runPage(runId);
    expect(page).toMatchObject({
      phase: 'waiting_for_quota',
      phaseLabel: "Waiting a minute for Search Console's per-minute quota",
      resumeAt: '2026-12-03T18:01:00.000Z',
      quotaStop: { limit: 'minute' },
    });
    const { rows: used } = await pool().query<{ used: number }>(
      'SELECT used FROM gsc_quota_usage WHERE property = $1',
      [property],
    );
    expect(used).toEqual([{ used: 1 }]);
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-03T18:01:00Z'));
    await step('inspect', runId);
    expect((await runPage(runId)).page).toMatchObject({
      status: 'succeeded',
      progress: { done: 2, total: 2 },
    });
    expect(askedFor(property)).toHaveLength(3);
  });

  it('cancels a run waiting for quota; its delayed step then does nothing', async () => {
    const property = await freshProperty();
    vi.stubEnv('GSC_INSPECTION_DAILY_QUOTA', '1');
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-05T20:00:00Z'));
    await pool().query(`INSERT INTO gsc_quota_usage (property, day, used) VALUES ($1, '2026-12-05', 1)`, [
      property,
    ]);
    const runId = await started({ sample: 1 });
    await step('select', runId);
    await step('inspect', runId);
    expect((await runPage(runId)).page.phase).toBe('waiting_for_quota');
    const res = await cancelRoute(
      reviewer.request(`${base()}/inspections/${runId}/cancel`, { method: 'POST' }),
      ctx({ id: auditId, runId }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as GscInspectionRunDto).status).toBe('cancelled');
    vi.spyOn(inspectionClock, 'now').mockReturnValue(new Date('2026-12-06T20:00:00Z'));
    await step('inspect', runId);
    expect((await runPage(runId)).page.status).toBe('cancelled');
    expect(askedFor(property)).toEqual([]);
  });

  it('fails with the property and Google’s message when the key was revoked', async () => {
    const property = await freshProperty();
    const revoked = await startFakeGoogle({ publicKey, clientEmail: EMAIL });
    revoked.revoke();
    vi.stubEnv('GOOGLE_OAUTH_TOKEN_URL', revoked.tokenUrl);
    vi.stubEnv('GSC_API_BASE_URL', revoked.apiBase);
    try {
      const runId = await started({ sample: 2 });
      await step('select', runId);
      await step('inspect', runId);
      const { page, text } = await runPage(runId);
      expect(page.status).toBe('failed');
      expect(page.errorMessage).toBe(
        `URL inspection stopped: the key was revoked or has no access to ${property}: Invalid grant: account not found`,
      );
      expect(text).not.toContain(PEM_LINE);
    } finally {
      vi.stubEnv('GOOGLE_OAUTH_TOKEN_URL', google.tokenUrl);
      vi.stubEnv('GSC_API_BASE_URL', google.apiBase);
      await revoked.close();
    }
  });

  it('keeps what was answered before a 403 at inspect, and fails the run with it', async () => {
    const property = await freshProperty();
    const runId = await started({ sample: 3, seed: 3 });
    await step('select', runId);
    const { rows } = await pool().query<{ targets: { url: string }[] }>(
      'SELECT targets FROM gsc_inspection_runs WHERE id = $1',
      [runId],
    );
    const third = new URL(rows[0]?.targets[2]?.url ?? 'about:blank').pathname;
    script.set(third, [
      { status: 403, body: { error: { code: 403, message: 'User does not have sufficient permission' } } },
    ]);
    await step('inspect', runId);
    const { page } = await runPage(runId);
    expect(page.status).toBe('failed');
    expect(page.errorMessage).toBe(
      `URL inspection stopped: the key was revoked or has no access to ${property}: User does not have sufficient permission`,
    );
    expect(page.items).toHaveLength(2);
  });

  it('says the key cannot be decrypted when GSC_CREDENTIALS_KEY changed', async () => {
    await freshProperty();
    const runId = await started({ sample: 1 });
    await step('select', runId);
    vi.stubEnv('GSC_CREDENTIALS_KEY', randomBytes(32).toString('base64'));
    try {
      await step('inspect', runId);
    } finally {
      vi.stubEnv('GSC_CREDENTIALS_KEY', SECRET);
    }
    const { page } = await runPage(runId);
    expect(page.status).toBe('failed');
    expect(page.errorMessage).toMatch(/cannot be decrypted .*upload the key again/);
  });
});
