// A crawl export added to a sitemap-only audit later, through the real route handlers, database and queue:
// the audit runs again from its add_crawl step and ends reconciled, its sitemap entries read once.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { gscImportRun } from '@/lib/gsc/import-run';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { POST as cancel } from './audits/[id]/cancel/route';
import { POST as addCrawl } from './audits/[id]/crawl/route';
import { GET as getImport } from './audits/[id]/gsc/imports/[importId]/route';
import { POST as postGsc } from './audits/[id]/gsc/route';
import { GET as getOne } from './audits/[id]/route';
import { POST as create } from './audits/route';

afterAll(() => stopBoss());

const reviewer = await testCaller('reviewer');
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

// R1 of the fixture corpus: the sitemap of one real site and a Screaming Frog crawl of it.
const SITEMAP = 'xml/recon-ayrshire-sitemap.xml';
const CRAWL = 'crawl-exports/recon-ayrshire-internal_all.csv';

function fileBlob(fixture: string): [Blob, string] {
  return [new Blob([readFileSync(fixturePath(fixture))]), path.basename(fixture)];
}

/** A sitemap-only audit, created through the API; `settle` runs its steps as the worker would. */
async function sitemapOnlyAudit(settle = true): Promise<string> {
  const form = new FormData();
  form.append('sitemap', ...fileBlob(SITEMAP));
  const res = await create(reviewer.request(base, { method: 'POST', body: form }), undefined);
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  if (settle) {
    await runAuditStep('ingest', id);
    await runAuditStep('site_history', id);
  }
  return id;
}

async function post(id: string, body: FormData | object, caller = reviewer) {
  const init: RequestInit =
    body instanceof FormData
      ? { method: 'POST', body }
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await addCrawl(caller.request(`${base}/${id}/crawl`, init), ctx(id));
  return { status: res.status, body: await res.json() };
}

function crawlForm(fixture = CRAWL): FormData {
  const form = new FormData();
  form.append('crawl', ...fileBlob(fixture));
  return form;
}

async function audit(id: string) {
  return (await (await getOne(reviewer.request(`${base}/${id}`), ctx(id))).json()) as {
    status: string;
    phase: string;
    findings: { prune: { total: number }; held: { total: number }; add: { total: number } } | null;
    sitemap: { entries: number; files: number };
    crawl: {
      rows: number;
      source: { kind: string; name: string } | null;
      format: string | null;
      sha256: string | null;
    };
    warnings: { code: string }[];
    startedAt: string | null;
    finishedAt: string | null;
  };
}

/** The audit's crawl upload folders (each added crawl gets its own). */
function crawlDirs(id: string): string[] {
  const dir = path.join(uploadsDir(), id);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('crawl-')) : [];
}

describe('POST /api/v1/audits/{id}/crawl', () => {
  it('adds a crawl export to a sitemap-only audit, which reconciles it with the entries already read', async () => {
    const id = await sitemapOnlyAudit();
    const before = await audit(id);
    expect(before).toMatchObject({ status: 'succeeded', findings: null, crawl: { source: null } });
    expect(before.sitemap.entries).toBe(79);
    expect(before.warnings.map((w) => w.code)).toContain('no_crawl');
    // Its sitemap files are graded without a crawl (the Hygiene tab shows the result).
    const lints = await pool().query('SELECT 1 FROM audit_lints WHERE audit_id = $1', [id]);
    expect(lints.rowCount).toBe(1);
    const fileIds = (
      await pool().query<{ id: number }>('SELECT id FROM sitemap_files WHERE audit_id = $1 ORDER BY id', [id])
    ).rows;

    // Viewers read; they add nothing.
    expect((await post(id, crawlForm(), viewer)).status).toBe(403);

    const added = await post(id, crawlForm());
    expect(added.status).toBe(202);
    expect(added.body).toMatchObject({ id, status: 'queued', crawl: { source: { kind: 'upload' } } });
    expect(crawlDirs(id)).toHaveLength(1);
    const jobs = await pool().query(
      "SELECT data FROM pgboss.job WHERE name = 'add-crawl' AND data->>'runId' = $1",
      [id],
    );
    expect(jobs.rows).toEqual([{ data: { runId: id, attempt: 1 } }]);

    // While it runs, a second crawl is refused, and its upload is not kept.
    const running = await post(id, crawlForm());
    expect(running.status).toBe(409);
    expect(running.body.error.message).toMatch(/running/);
    expect(crawlDirs(id)).toHaveLength(1);

    await runAuditStep('add_crawl', id);
    expect(await audit(id)).toMatchObject({ status: 'running', phase: 'reconcile_queued' });
    // Its duration is this run's, not the time since the sitemaps were read.
    const started = (await audit(id)).startedAt;
    expect(Date.parse(started as string)).toBeGreaterThan(Date.parse(before.finishedAt as string));
    await runAuditStep('reconcile', id);
    await runAuditStep('site_history', id);

    const after = await audit(id);
    expect(['succeeded', 'partial']).toContain(after.status);
    expect(after.crawl).toMatchObject({ rows: 58, format: 'screaming-frog' });
    // Its identity is kept as an ingest's is, so a later run on the same export confirms nothing.
    const bytes = readFileSync(fixturePath(CRAWL));
    expect(after.crawl.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    // The sitemap was not read again: the same files, the same entries.
    expect(after.sitemap.entries).toBe(79);
    expect(
      (await pool().query('SELECT id FROM sitemap_files WHERE audit_id = $1 ORDER BY id', [id])).rows,
    ).toEqual(fileIds);
    expect(after.warnings.map((w) => w.code)).not.toContain('no_crawl');
    expect(after.findings).not.toBeNull();
    const findings = after.findings as NonNullable<typeof after.findings>;
    expect(findings.prune.total + findings.held.total + findings.add.total).toBeGreaterThan(0);
    const stored = await pool().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM findings WHERE audit_id = $1',
      [id],
    );
    expect(stored.rows[0]?.n).toBe(findings.prune.total + findings.held.total + findings.add.total);

    // One crawl per audit: its findings may carry decisions a second crawl would re-judge.
    const again = await post(id, crawlForm());
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(
      /already has a crawl export \(recon-ayrshire-internal_all\.csv\)/,
    );
    expect(crawlDirs(id)).toHaveLength(1);
  });

  it('says what is wrong with the request, and refuses an audit that has not finished', async () => {
    const id = await sitemapOnlyAudit(false);
    const queued = await post(id, crawlForm());
    expect(queued.status).toBe(409);
    expect(queued.body.error.message).toMatch(/running/);
    await runAuditStep('ingest', id);
    await runAuditStep('site_history', id);

    const none = await post(id, new FormData());
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/Give the crawl export/);
    const both = crawlForm();
    both.append('crawlUrl', 'https://files.example.com/internal_all.csv');
    expect((await post(id, both)).body.error.message).toMatch(/not both/);
    const sitemap = new FormData();
    sitemap.append('sitemap', ...fileBlob(SITEMAP));
    expect((await post(id, sitemap)).body.error.message).toMatch(/Unexpected file field "sitemap"/);
    const lenient = await post(id, {
      crawlUrl: 'https://files.example.com/internal_all.csv',
      options: { normalization: 'lenient' },
    });
    expect(lenient.status).toBe(400);
    expect(lenient.body.error.message).toMatch(/keyed "exact"/);
    // Nothing of a refused request stays: no upload, no source, the audit as it was.
    expect(crawlDirs(id)).toEqual([]);
    expect(await audit(id)).toMatchObject({ status: 'succeeded', crawl: { source: null } });

    // A crawl by URL with a column map, as the New audit form sends one.
    const form = new FormData();
    form.append('crawlUrl', 'http://127.0.0.1:9/internal_all.csv');
    form.append(
      'options',
      JSON.stringify({ normalization: 'exact', crawlFormat: 'csv', columnMap: { url: 'Address' } }),
    );
    const byUrl = await post(id, form);
    expect(byUrl.status).toBe(202);
    expect(byUrl.body).toMatchObject({
      status: 'queued',
      options: { normalization: 'exact', crawlFormat: 'csv', columnMap: { url: 'Address' } },
      crawl: { source: { kind: 'url', name: 'http://127.0.0.1:9/internal_all.csv' } },
    });
    // An export that cannot be fetched leaves the audit as its sitemaps made it, with the crawl's error.
    await runAuditStep('add_crawl', id);
    const after = await audit(id);
    expect(after).toMatchObject({ status: 'partial', findings: null, sitemap: { entries: 79 } });
  });

  it('cancelled before its crawl is read, the audit keeps the sitemap entries it had', async () => {
    const id = await sitemapOnlyAudit();
    expect((await post(id, crawlForm())).status).toBe(202);
    const res = await cancel(reviewer.request(`${base}/${id}/cancel`, { method: 'POST' }), ctx(id));
    expect(res.status).toBe(200);
    // The queued step finds the run cancelled and reads nothing.
    await runAuditStep('add_crawl', id);
    expect(await audit(id)).toMatchObject({ status: 'cancelled', findings: null, crawl: { rows: 0 } });
    const rows = await pool().query<{ entries: number; crawl: number }>(
      `SELECT (SELECT count(*)::int FROM sitemap_entries WHERE audit_id = $1) AS entries,
              (SELECT count(*)::int FROM crawl_pages WHERE audit_id = $1) AS crawl`,
      [id],
    );
    expect(rows.rows[0]).toEqual({ entries: 79, crawl: 0 });
    const again = await post(id, crawlForm());
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/was cancelled; start a new audit/);
  });

  it('a sitemap-only audit takes Search Console exports, read against its declared files', async () => {
    const id = await sitemapOnlyAudit();
    const form = new FormData();
    const folder = 'gsc/mikenelson-indexing-overview';
    for (const name of readdirSync(fixturePath(folder)))
      form.append('files', new Blob([readFileSync(fixturePath(`${folder}/${name}`))]), name);
    const res = await postGsc(
      reviewer.request(`${base}/${id}/gsc`, { method: 'POST', body: form }),
      ctx(id) as never,
    );
    expect(res.status, await res.clone().text()).toBe(202);
    const { importId } = (await res.json()) as { importId: string };
    await runStep(gscImportRun, 'parse', { runId: importId, attempt: 1 });
    const got = await getImport(reviewer.request(`${base}/${id}/gsc/imports/${importId}`), {
      params: Promise.resolve({ id, importId }),
    } as never);
    expect(await got.json()).toMatchObject({ status: 'succeeded' });
  });

  it('answers 404 for an audit that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await post(missing, crawlForm())).status).toBe(404);
  });
});
