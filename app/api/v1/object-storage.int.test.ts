// Uploads in an S3-compatible bucket, end to end: a real S3 server (s3rver) on 127.0.0.1 and the S3_*
// variables in this process's environment, as an operator would set them. The audit's files go to the
// bucket and nowhere under DATA_DIR; the ingest (the crawl export on its own thread, which builds its
// store from the environment it inherits) reads them back from the bucket; Run again copies them inside
// the bucket; deleting the audits removes their objects; a refused upload leaves none.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getImport } from '@/app/api/v1/audits/[id]/gsc/imports/[importId]/route';
import { POST as postGsc } from '@/app/api/v1/audits/[id]/gsc/route';
import { startSiteRun } from '@/lib/audit-runs/site-runs';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { gscImportRun } from '@/lib/gsc/import-run';
import { buildZip } from '@/lib/gsc/test-zip';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { storage } from '@/lib/storage/store';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { type LocalBucket, startLocalBucket } from '@/lib/test-support/local-bucket';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { DELETE, GET as getOne } from './audits/[id]/route';
import { POST } from './audits/route';

const BUCKET = 'audit-uploads';
const SETTINGS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION'];
const TUNED = ['CRAWL_THREAD_MIN_BYTES', 'UPLOAD_MAX_BYTES'];
const saved = new Map([...SETTINGS, ...TUNED].map((name) => [name, process.env[name]]));

let local: LocalBucket;
let bucket: S3Client;

beforeAll(async () => {
  local = await startLocalBucket(BUCKET);
  const { endpoint } = local;
  Object.assign(process.env, {
    S3_ENDPOINT: endpoint,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: local.accessKeyId,
    S3_SECRET_ACCESS_KEY: local.secretAccessKey,
    S3_REGION: 'us-east-1',
    // Every crawl export is read on the crawl thread, however small.
    CRAWL_THREAD_MIN_BYTES: '0',
  });
  // The test's own look into the bucket, apart from the app's store.
  bucket = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: local.accessKeyId, secretAccessKey: local.secretAccessKey },
  });
});

afterAll(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  bucket?.destroy();
  await local?.close();
  await stopBoss();
});

const admin = await testCaller('admin');
const base = 'http://localhost/api/v1/audits';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

/** Every object of the bucket, with its size. */
async function objects(prefix = ''): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await bucket.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }),
    );
    for (const item of page.Contents ?? []) found.set(item.Key as string, item.Size ?? 0);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found;
}

async function post(form: FormData) {
  const res = await POST(admin.request(base, { method: 'POST', body: form }), undefined);
  return { status: res.status, body: await res.json() };
}

async function audit(id: string) {
  return (await getOne(admin.request(`${base}/${id}`), ctx(id))).json();
}

async function storedPaths(id: string): Promise<string[]> {
  const { rows } = await pool().query<{ stored_path: string }>(
    'SELECT stored_path FROM audit_sources WHERE audit_id = $1 AND stored_path IS NOT NULL ORDER BY id',
    [id],
  );
  return rows.map((r) => r.stored_path);
}

const HOST = 'https://bucket-site.example';
const declared = (file: number) => Array.from({ length: 500 }, (_, i) => `${HOST}/f${file}/p${i}`);

/** A crawl export of the declared pages, padded to about 10 MB so that the bucket receives it as a
 * multipart upload (8 MiB parts) and the crawl thread streams it back in many chunks. */
function crawlExport(): Buffer {
  const pad = 'x'.repeat(900);
  const lines: string[] = [];
  for (const file of [1, 2]) {
    for (const url of declared(file).slice(0, 450))
      lines.push(JSON.stringify({ url, status: 200, note: pad }));
  }
  for (let i = 0; lines.length < 10_500; i++) {
    lines.push(JSON.stringify({ url: `${HOST}/only-crawled/${i}`, status: 200, note: pad }));
  }
  return Buffer.from(lines.join('\n'));
}

describe('uploads in an S3-compatible bucket', () => {
  it('stores the uploads in the bucket only, ingests them from it, copies them on Run again and deletes them with the audits', async () => {
    expect((await storage()).driver).toBe('s3');
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${HOST}/sitemap-1.xml.gz</loc></sitemap><sitemap><loc>${HOST}/sitemap-2.xml</loc></sitemap></sitemapindex>`;
    const crawl = crawlExport();
    expect(crawl.length).toBeGreaterThan(9 * 1024 * 1024);
    const form = new FormData();
    form.append('name', 'Bucket audit');
    form.append('sitemap', new Blob([index]), 'sitemap_index.xml');
    form.append('sitemap', new Blob([new Uint8Array(gzipSync(urlsetXml(declared(1))))]), 'sitemap-1.xml.gz');
    form.append('sitemap', new Blob([urlsetXml(declared(2))]), '../../sitemap-2.xml');
    form.append('crawl', new Blob([new Uint8Array(crawl)]), 'crawl export.jsonl');
    const created = await post(form);
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;

    // The rows hold keys of the bucket, named safely (no "../", no space), and nothing is on local disk.
    const keys = await storedPaths(id);
    expect(keys).toEqual([
      `${id}/0001-sitemap_index.xml`,
      `${id}/0002-sitemap-1.xml.gz`,
      `${id}/0003-sitemap-2.xml`,
      `${id}/0004-crawl_export.jsonl`,
    ]);
    const stored = await objects(`${id}/`);
    expect([...stored.keys()].sort()).toEqual(keys);
    expect(stored.get(`${id}/0004-crawl_export.jsonl`)).toBe(crawl.length);
    expect(existsSync(path.join(uploadsDir(), id))).toBe(false);

    await runAuditStep('ingest', id);
    await runAuditStep('reconcile', id);
    await runAuditStep('site_history', id);
    const done = await audit(id);
    expect(done.status).toBe('succeeded');
    // Read from the bucket: the index first, its two uploaded children by name, every crawl row.
    expect(done).toMatchObject({
      sitemap: { files: 3, filesFailed: 0, entries: 1000 },
      crawl: { rows: 10_500, rowsRejected: 0, format: 'jsonl' },
    });
    expect(existsSync(path.join(uploadsDir(), id))).toBe(false);

    // Run again: the new audit's uploads are copies inside the bucket, and read like the first.
    const { rows } = await pool().query<{ site_id: string }>('SELECT site_id FROM audits WHERE id = $1', [
      id,
    ]);
    const siteId = rows[0]?.site_id as string;
    expect(siteId).toBeTruthy();
    const rerun = await startSiteRun({ siteId, trigger: 'rerun' });
    const copied = await storedPaths(rerun.id);
    expect(copied).toEqual([
      `${rerun.id}/0000-sitemap_index.xml`,
      `${rerun.id}/0001-sitemap-1.xml.gz`,
      `${rerun.id}/0002-sitemap-2.xml`,
      `${rerun.id}/0003-crawl_export.jsonl`,
    ]);
    expect((await objects(`${rerun.id}/`)).get(`${rerun.id}/0003-crawl_export.jsonl`)).toBe(crawl.length);
    await runAuditStep('ingest', rerun.id);
    await runAuditStep('reconcile', rerun.id);
    expect(await audit(rerun.id)).toMatchObject({
      status: 'succeeded',
      sitemap: { files: 3, entries: 1000 },
      crawl: { rows: 10_500 },
    });
    expect(existsSync(path.join(uploadsDir(), rerun.id))).toBe(false);

    // Deleting an audit deletes its objects, and only its own.
    expect((await DELETE(admin.request(`${base}/${id}`, { method: 'DELETE' }), ctx(id))).status).toBe(204);
    expect(await objects(`${id}/`)).toEqual(new Map());
    expect((await objects(`${rerun.id}/`)).size).toBe(4);
    const gone = await DELETE(admin.request(`${base}/${rerun.id}`, { method: 'DELETE' }), ctx(rerun.id));
    expect(gone.status).toBe(204);
    expect(await objects(`${rerun.id}/`)).toEqual(new Map());
  });

  it('an upload over the cap is refused while it streams and leaves no object', async () => {
    process.env.UPLOAD_MAX_BYTES = String(1024 * 1024);
    try {
      const before = await objects();
      const form = new FormData();
      form.append('sitemap', new Blob([urlsetXml(declared(1))]), 'small.xml');
      // Three parts' worth would be buffered by a store that read the file first: refused at 1 MiB.
      form.append('crawl', new Blob([new Uint8Array(20 * 1024 * 1024).fill(0x61)]), 'huge.jsonl');
      const res = await post(form);
      expect(res.status).toBe(413);
      expect(res.body.error.message).toBe('huge.jsonl is larger than the upload limit of 1 MiB');
      expect(await objects()).toEqual(before);
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
    }
  });

  it('a Search Console zip goes to the bucket, is read from it by the import step, and is removed after', async () => {
    // Its sources were written by path before the bucket (as older rows were): still read from disk.
    const sitemap = readFileSync(fixturePath('xml/recon-dhmguide-sitemap.xml'), 'utf8');
    const auditId = await reconciledAuditOf('GSC from the bucket', {
      sitemaps: { 'sitemap.xml': sitemap },
      crawl: [JSON.stringify({ url: 'https://www.dhmguide.com/', status: 200 })],
    });
    expect((await audit(auditId)).status).toBe('succeeded');
    const folder = 'dhmguide-drilldown-page-with-redirect';
    const zip = buildZip(
      ['Table.csv', 'Chart.csv', 'Metadata.csv'].map((name) => ({
        name: `${folder}/${name}`,
        data: readFileSync(fixturePath(`gsc/${folder}/${name}`)),
      })),
    );
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(zip)]), 'Page with redirect.zip');
    const res = await postGsc(
      admin.request(`${base}/${auditId}/gsc`, { method: 'POST', body: form }),
      ctx(auditId) as never,
    );
    expect(res.status, await res.clone().text()).toBe(202);
    const { importId } = (await res.json()) as { importId: string };
    const key = `${auditId}/gsc/${importId}/0001-Page_with_redirect.zip`;
    expect(await objects(`${auditId}/`)).toEqual(new Map([[key, zip.length]]));
    expect(existsSync(path.join(uploadsDir(), auditId, 'gsc'))).toBe(false);

    await runStep(gscImportRun, 'parse', { runId: importId, attempt: 1 });
    const got = await getImport(admin.request(`${base}/${auditId}/gsc/imports/${importId}`), {
      params: Promise.resolve({ id: auditId, importId }),
    } as never);
    expect(await got.json()).toMatchObject({ status: 'succeeded', summary: { urls: 46, notIndexed: 46 } });
    // Read and stored: the upload has done its work.
    expect(await objects(`${auditId}/`)).toEqual(new Map());
  });
});
