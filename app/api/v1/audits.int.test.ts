// The audits API through its real route handlers, database and queue.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { DELETE, GET as getOne } from './audits/[id]/route';
import { GET as getSitemaps } from './audits/[id]/sitemaps/route';
import { GET as list, POST } from './audits/route';

afterAll(() => stopBoss());

const admin = await testCaller('admin');

const base = 'http://localhost/api/v1/audits';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

function fileBlob(fixture: string, name = path.basename(fixture)): [Blob, string] {
  return [new Blob([readFileSync(fixturePath(fixture))]), name];
}

async function post(body: FormData | object | string, contentType?: string) {
  const init: RequestInit =
    body instanceof FormData
      ? { method: 'POST', body }
      : {
          method: 'POST',
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': contentType ?? 'application/json' },
        };
  const res = await POST(admin.request(base, init), undefined);
  return { status: res.status, body: await res.json() };
}

async function fetchAudit(id: string) {
  const res = await getOne(admin.request(`${base}/${id}`), ctx(id));
  return { status: res.status, body: await res.json() };
}

describe('POST /api/v1/audits', () => {
  it('accepts uploads, streams them to disk, queues the job, and the audit ingests', async () => {
    const form = new FormData();
    form.append('name', 'Upload test');
    form.append('sitemap', ...fileBlob('index/aafeher-minisite/sitemapindex-1.xml.gz'));
    for (const n of ['01', '02', '03'])
      form.append('sitemap', ...fileBlob(`index/aafeher-minisite/sitemap-${n}.xml.gz`));
    form.append('crawl', ...fileBlob('crawl-exports/sf-internal_all-squareone.ca.csv'));
    form.append('options', JSON.stringify({ normalization: 'lenient' }));
    const created = await post(form);
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ id: expect.any(String), status: 'queued' });
    const id = created.body.id as string;
    expect(readdirSync(path.join(uploadsDir(), id))).toHaveLength(5);

    const jobs = await pool().query(
      "SELECT data FROM pgboss.job WHERE name = 'ingest' AND data->>'runId' = $1",
      [id],
    );
    expect(jobs.rows).toEqual([{ data: { runId: id, attempt: 1 } }]);

    await runAuditStep('ingest', id);
    // Ingest with a crawl export hands over to the reconcile job.
    expect((await fetchAudit(id)).body).toMatchObject({
      status: 'running',
      phase: 'reconcile_queued',
    });
    const queued = await pool().query(
      "SELECT name FROM pgboss.job WHERE data->>'runId' = $1 ORDER BY created_on",
      [id],
    );
    expect(queued.rows.map((r) => r.name)).toEqual(['ingest', 'reconcile']);
    await runAuditStep('reconcile', id);
    const { body } = await fetchAudit(id);
    expect(body).toMatchObject({
      id,
      name: 'Upload test',
      status: 'succeeded',
      options: { normalization: 'lenient' },
      sitemap: { files: 4, filesFailed: 0, entries: 6, uniqueUrls: 6 },
      crawl: { rows: 318, rowsRejected: 0, format: 'screaming-frog' },
    });
    expect(body.finishedAt).toEqual(expect.any(String));
    expect(body.progress.done).toBe(body.progress.total);
    expect(body.findings).toMatchObject({ add: { total: expect.any(Number) } });
    const files = await (await getSitemaps(admin.request(`${base}/${id}/sitemaps`), ctx(id))).json();
    expect(files.items.map((f: { uploadName: string }) => f.uploadName)).toEqual([
      'sitemapindex-1.xml.gz',
      'sitemap-01.xml.gz',
      'sitemap-02.xml.gz',
      'sitemap-03.xml.gz',
    ]);
  });

  it.each([
    ['no sitemap at all', { sitemapUrls: [] }, 400, /at least one sitemap URL/],
    ['a non-http URL', { sitemapUrls: ['ftp://example.com/s.xml'] }, 400, /absolute http\(s\) URL/],
    ['an unknown option', { sitemapUrls: ['https://example.com/'], options: { nope: 1 } }, 400, /nope/],
    [
      'an unknown column-map field',
      { sitemapUrls: ['https://example.com/'], options: { columnMap: { title: 'Title 1' } } },
      400,
      /columnMap/,
    ],
    [
      'a bad normalization',
      { sitemapUrls: ['https://example.com/'], options: { normalization: 'fuzzy' } },
      400,
      /normalization/,
    ],
  ])('rejects %s with a specific message', async (_label, body, status, message) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(message);
  });

  it('rejects malformed JSON, other content types, bad options text and stray file fields', async () => {
    expect((await post('{oops')).body.error).toEqual({
      code: 'bad_request',
      message: expect.stringMatching(/not valid JSON/),
    });
    expect((await post('x', 'text/plain')).status).toBe(415);

    const badOptions = new FormData();
    badOptions.append('sitemapUrl', 'https://example.com/sitemap.xml');
    badOptions.append('options', '{normalization: exact}');
    const r1 = await post(badOptions);
    expect(r1.status).toBe(400);
    expect(r1.body.error.message).toMatch(/options is not valid JSON/);

    const stray = new FormData();
    stray.append('other', ...fileBlob('xml/gopher-sitemap.xml'));
    const r2 = await post(stray);
    expect(r2.status).toBe(400);
    expect(r2.body.error.message).toMatch(/Unexpected file field "other"/);

    const wrongType = new FormData();
    wrongType.append('sitemap', ...fileBlob('crawl-exports/recon-ayrshire-links_all.csv'));
    const r3 = await post(wrongType);
    expect(r3.body.error.message).toMatch(/recon-ayrshire-links_all\.csv: sitemap uploads must be/);
  });

  it('refuses an upload over the size limit with 413 and keeps nothing of it', async () => {
    const before = existsSync(uploadsDir()) ? readdirSync(uploadsDir()).length : 0;
    process.env.UPLOAD_MAX_BYTES = '1000';
    try {
      const form = new FormData();
      form.append('sitemap', ...fileBlob('xml/breakroom-sitemap-100-urls.xml'));
      const res = await post(form);
      expect(res.status).toBe(413);
      expect(res.body.error.message).toMatch(
        /breakroom-sitemap-100-urls\.xml is larger than the upload limit/,
      );
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
    }
    const after = existsSync(uploadsDir()) ? readdirSync(uploadsDir()).length : 0;
    expect(after).toBe(before);
  });
});

describe('GET and DELETE /api/v1/audits/{id}', () => {
  it('answers 404 for ids that do not exist or are not ids', async () => {
    expect((await fetchAudit('not-a-uuid')).status).toBe(404);
    const missing = await fetchAudit('00000000-0000-4000-8000-000000000000');
    expect(missing).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No such audit' } },
    });
  });

  it('deletes an audit with its rows, findings, decisions and uploaded files', async () => {
    const form = new FormData();
    form.append('sitemap', ...fileBlob('xml/breakroom-sitemap-100-urls.xml'));
    form.append('crawl', ...fileBlob('crawl-exports/sf-internal_all-squareone.ca.csv'));
    const { body } = await post(form);
    await runAuditStep('ingest', body.id);
    await runAuditStep('reconcile', body.id);
    const hex = body.id.replaceAll('-', '');
    const relations = async () =>
      (
        await pool().query<{ relname: string }>(
          "SELECT relname FROM pg_class WHERE relname LIKE '%' || $1 || '%' AND relkind IN ('r', 'p', 'v') ORDER BY 1",
          [hex],
        )
      ).rows.map((r) => r.relname);
    expect(await relations()).toEqual([
      `crawl_pages_${hex}`,
      `decision_log_${hex}`,
      `findings_${hex}`,
      `sitemap_entries_${hex}`,
    ]);
    const res = await DELETE(admin.request(`${base}/${body.id}`, { method: 'DELETE' }), ctx(body.id));
    expect(res.status).toBe(204);
    expect((await fetchAudit(body.id)).status).toBe(404);
    // Nothing of the audit is left: no partition, no reconcile set, no staging table.
    expect(await relations()).toEqual([]);
    const { rows } = await pool().query('SELECT count(*)::int AS n FROM finding_counts WHERE audit_id = $1', [
      body.id,
    ]);
    expect(rows[0].n).toBe(0);
    expect(existsSync(path.join(uploadsDir(), body.id))).toBe(false);
    expect(
      (await DELETE(admin.request(`${base}/${body.id}`, { method: 'DELETE' }), ctx(body.id))).status,
    ).toBe(404);
  });
});

describe('GET /api/v1/audits', () => {
  it('pages newest first with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await post({ name: `page ${i}`, sitemapUrls: ['https://example.com/'] })).body.id);
    const first = await (await list(admin.request(`${base}?limit=2`), undefined)).json();
    expect(first.items.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await (
      await list(admin.request(`${base}?limit=2&cursor=${first.nextCursor}`), undefined)
    ).json();
    expect(second.items[0].id).toBe(ids[0]);
    const bad = await list(admin.request(`${base}?limit=5000`), undefined);
    expect(bad.status).toBe(400);
  });
});
