// Conditional fetching between the audits of a site: validators sent, 304s reused (entries, children),
// a 304 nobody asked for failing its file, and a deleted audit leaving nothing to reuse. Real Postgres,
// real HTTP servers on 127.0.0.1 that honour If-None-Match / If-Modified-Since as a web server would.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/audits/[id]/route';
import { getAudit, listSitemapFiles } from '@/lib/audits/data';
import { deleteAudit, insertAudit, type NewSource, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { dropPartition } from '@/lib/db/partitions';
import { beginEntryLoad } from '@/lib/ingest/mutations';
import type { PreviousCopy } from '@/lib/ingest/tree-types';
import { type RecordedRequest, startTestServer, type TestServer } from '@/lib/net/test-server';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { siteHostOf } from '@/lib/urls/site-host';

interface Doc {
  body: string;
  version: number;
}

/** Serves `docs` by path with an ETag and a Last-Modified per version; answers 304 when either
 * validator matches (or, with `alwaysNotModified`, to every request). */
async function siteServer(docs: Map<string, Doc>, alwaysNotModified = false): Promise<TestServer> {
  const modified = (v: number) => new Date(Date.UTC(2026, 10, v)).toUTCString();
  return startTestServer((req: http.IncomingMessage, res: http.ServerResponse) => {
    const doc = docs.get(req.url ?? '');
    if (!doc) {
      res.writeHead(404).end();
      return;
    }
    const etag = `"${req.url}-v${doc.version}"`;
    const lastModified = modified(doc.version);
    const fresh = req.headers['if-none-match'] === etag || req.headers['if-modified-since'] === lastModified;
    if (alwaysNotModified || fresh) {
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml', etag, 'last-modified': lastModified });
    res.end(doc.body);
  });
}

const indexXml = (origin: string, children: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children
    .map((c) => `<sitemap><loc>${origin}${c}</loc><lastmod>2026-11-01</lastmod></sitemap>`)
    .join('')}</sitemapindex>`;

const scratch = mkdtempSync(path.join(os.tmpdir(), 'conditional-test-'));
let viewer: TestCaller;
const servers: TestServer[] = [];

beforeAll(async () => {
  viewer = await testCaller('viewer');
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** Creates an audit of the site of `url`'s host (as the API does for URL sources) and runs its steps. */
async function audit(url: string, crawlLocs: string[] = [], uploads: string[] = []) {
  const id = randomUUID();
  const sources: NewSource[] = [{ role: 'sitemap', kind: 'url', url }];
  for (const xml of uploads) {
    const storedPath = path.join(scratch, `${randomUUID()}.xml`);
    writeFileSync(storedPath, xml);
    sources.push({ role: 'sitemap', kind: 'upload', fileName: 'upload.xml', storedPath });
  }
  if (crawlLocs.length > 0) {
    const storedPath = path.join(scratch, `${id}.jsonl`);
    writeFileSync(storedPath, crawlLocs.map((u) => JSON.stringify({ url: u, status: 200 })).join('\n'));
    sources.push({ role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath });
  }
  const siteId = await siteIdForHost(siteHostOf(url) as string);
  await insertAudit(id, 'conditional', { normalization: 'exact' }, sources, { siteId });
  await runAuditStep('ingest', id);
  if ((await getAudit(id))?.phase === 'reconcile_queued') await runAuditStep('reconcile', id);
  await runAuditStep('site_history', id);
  const row = await getAudit(id);
  if (!row) throw new Error('audit vanished');
  return { id, audit: row, files: (await listSitemapFiles(id)).items };
}

async function locsOfFile(fileId: number): Promise<string[]> {
  const { rows } = await pool().query(
    'SELECT loc FROM sitemap_entries WHERE file_id = $1 ORDER BY position',
    [fileId],
  );
  return rows.map((r) => r.loc);
}

async function validatorsOf(fileId: number) {
  const { rows } = await pool().query('SELECT etag, last_modified FROM sitemap_files WHERE id = $1', [
    fileId,
  ]);
  return rows[0] as { etag: string | null; last_modified: string | null };
}

async function changesOf(auditId: string): Promise<[string, string][]> {
  const { rows } = await pool().query<{ type: string; url: string }>(
    'SELECT type, url FROM site_changes WHERE audit_id = $1 ORDER BY type, url',
    [auditId],
  );
  return rows.map((r) => [r.type, r.url]);
}

const conditions = (r: RecordedRequest) => ({
  ifNoneMatch: r.headers['if-none-match'] ?? null,
  ifModifiedSince: r.headers['if-modified-since'] ?? null,
});

describe('conditional fetching of a site', () => {
  it('sends validators to the previous audit, reuses what answers 304 and reads what changed', async () => {
    const docs = new Map<string, Doc>();
    const server = await siteServer(docs);
    servers.push(server);
    const o = server.origin;
    const pages = (file: string, n: number) => Array.from({ length: n }, (_, i) => `${o}/${file}/p${i + 1}`);
    docs.set('/index.xml', { body: indexXml(o, ['/a.xml', '/b.xml']), version: 1 });
    docs.set('/a.xml', { body: urlsetXml(pages('a', 3)), version: 1 });
    docs.set('/b.xml', { body: urlsetXml(pages('b', 2)), version: 1 });
    const crawl = [...pages('a', 3), ...pages('b', 3)];

    // 1. First audit of the site: plain GETs, everything read and stored.
    const first = await audit(`${o}/index.xml`, crawl);
    expect(first.audit.status).toBe('succeeded');
    expect(first.audit.reusedFiles).toBe(0);
    expect(server.requests.map((r) => r.url)).toEqual(['/index.xml', '/a.xml', '/b.xml']);
    expect(server.requests.map(conditions)).toEqual(
      Array(3).fill({ ifNoneMatch: null, ifModifiedSince: null }),
    );
    const firstA = first.files.find((f) => f.url === `${o}/a.xml`);
    expect(await validatorsOf(firstA?.id as number)).toEqual({
      etag: '"/a.xml-v1"',
      last_modified: new Date(Date.UTC(2026, 10, 1)).toUTCString(),
    });
    expect(await locsOfFile(firstA?.id as number)).toEqual(pages('a', 3));

    // 2. b.xml changes; the index and a.xml do not.
    docs.set('/b.xml', { body: urlsetXml(pages('b', 3)), version: 2 });
    server.requests.length = 0;
    const second = await audit(`${o}/index.xml`, crawl);
    expect(server.requests.map((r) => r.url)).toEqual(['/index.xml', '/a.xml', '/b.xml']);
    for (const request of server.requests) {
      expect(conditions(request)).toEqual({
        ifNoneMatch: `"${request.url}-v1"`,
        ifModifiedSince: new Date(Date.UTC(2026, 10, 1)).toUTCString(),
      });
    }
    expect(second.audit.status).toBe('succeeded');
    expect(second.audit.findings).not.toBeNull(); // reconciled
    expect(second.audit.reusedFiles).toBe(2);
    expect(second.audit.sitemap).toEqual({ files: 3, filesFailed: 0, entries: 6, uniqueUrls: 6 });
    const byUrl = (files: typeof first.files, p: string) => files.find((f) => f.url === `${o}${p}`);
    const [index, a, b] = ['/index.xml', '/a.xml', '/b.xml'].map((p) => byUrl(second.files, p));
    expect(index).toMatchObject({ status: 'ok', kind: 'index', httpStatus: 304, entries: 2 });
    expect(index?.reusedFrom).toBe(byUrl(first.files, '/index.xml')?.id);
    // The reused index's children were walked (and fetched conditionally) as if it had been parsed.
    expect(a?.parentId).toBe(index?.id);
    expect(b?.parentId).toBe(index?.id);
    expect(a).toMatchObject({ status: 'ok', kind: 'urlset', httpStatus: 304, entries: 3 });
    expect(a?.reusedFrom).toBe(firstA?.id);
    expect((await validatorsOf(a?.id as number)).etag).toBe('"/a.xml-v1"');
    expect(await locsOfFile(a?.id as number)).toEqual(pages('a', 3));
    // What the corrected set writes back is carried over too: the root tag, the index's lastmod.
    const markup = await pool().query(
      'SELECT id, root_tag, listed_loc, listed_lastmod FROM sitemap_files WHERE id = ANY ($1::int[]) ORDER BY id',
      [[index?.id, a?.id]],
    );
    expect(markup.rows.map(({ id: _, ...r }) => r)).toEqual([
      {
        root_tag: 'sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
        listed_loc: null,
        listed_lastmod: null,
      },
      {
        root_tag: 'urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
        listed_loc: `${o}/a.xml`,
        listed_lastmod: '2026-11-01',
      },
    ]);
    expect(b).toMatchObject({ status: 'ok', httpStatus: 200, entries: 3, reusedFrom: null });
    expect((await validatorsOf(b?.id as number)).etag).toBe('"/b.xml-v2"');
    expect(await locsOfFile(b?.id as number)).toEqual(pages('b', 3));

    const res = await GET(viewer.request(`http://localhost/api/v1/audits/${second.id}`), {
      params: Promise.resolve({ id: second.id }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: second.id, reusedFiles: 2, complete: true });
    // The site's change events see the reused files as declared again: only b.xml's new page changed.
    expect(await changesOf(second.id)).toEqual([['url_added', `${o}/b/p3`]]);

    // A third run reuses the second's copies (their validators carried over), b.xml's new one included.
    server.requests.length = 0;
    const third = await audit(`${o}/index.xml`, crawl);
    expect(third.audit.reusedFiles).toBe(3);
    expect(conditions(server.requests.find((r) => r.url === '/b.xml') as RecordedRequest).ifNoneMatch).toBe(
      '"/b.xml-v2"',
    );
    expect(byUrl(third.files, '/a.xml')?.reusedFrom).toBe(a?.id);
    expect(third.audit.sitemap.entries).toBe(6);
    // Everything reused: a complete run with nothing changed, so no events.
    expect(third.audit.complete).toBe(true);
    expect(await changesOf(third.id)).toEqual([]);
  });

  it('fails a file answered 304 when no condition was sent (nothing to reuse): the audit is partial', async () => {
    const docs = new Map<string, Doc>([
      ['/sitemap.xml', { body: urlsetXml(['https://x.example/']), version: 1 }],
    ]);
    const lying = await siteServer(docs, true);
    servers.push(lying);
    // The first audit of its site, with an uploaded file beside it that reads fine.
    const { audit: row, files } = await audit(
      `${lying.origin}/sitemap.xml`,
      [],
      [urlsetXml(['https://x.example/g'])],
    );
    expect(lying.requests.map(conditions)).toEqual([{ ifNoneMatch: null, ifModifiedSince: null }]);
    const lied = files.find((f) => f.url === `${lying.origin}/sitemap.xml`);
    expect(lied).toMatchObject({
      status: 'failed',
      httpStatus: 304,
      entries: 0,
      reusedFrom: null,
      error: expect.objectContaining({ code: 'not_modified_without_copy' }),
    });
    expect(lied?.error?.message).toMatch(/304 Not Modified, but no earlier copy of this file is stored/);
    expect(row.status).toBe('partial');
    expect(row.reusedFiles).toBe(0);
    expect(row.sitemap).toMatchObject({ files: 2, filesFailed: 1, entries: 1 });
    expect(row.errors).toEqual([
      expect.objectContaining({ code: 'not_modified_without_copy', source: `${lying.origin}/sitemap.xml` }),
    ]);
  });

  it('sends no condition once the previous audit is deleted, and reads the file again', async () => {
    const docs = new Map<string, Doc>([
      ['/sitemap.xml', { body: urlsetXml(['https://y.example/1']), version: 1 }],
    ]);
    const server = await siteServer(docs);
    servers.push(server);
    const url = `${server.origin}/sitemap.xml`;
    const first = await audit(url);
    expect(first.audit.status).toBe('succeeded');
    expect(await deleteAudit(first.id)).toBe(true);
    server.requests.length = 0;
    const next = await audit(url);
    expect(server.requests.map(conditions)).toEqual([{ ifNoneMatch: null, ifModifiedSince: null }]);
    expect(next.audit.reusedFiles).toBe(0);
    expect(next.files).toEqual([
      expect.objectContaining({ status: 'ok', httpStatus: 200, reusedFrom: null }),
    ]);
    expect(next.audit.sitemap.entries).toBe(1);
  });

  it('sends no condition for a copy whose entries are gone (a failed ingest keeps its file rows)', async () => {
    const docs = new Map<string, Doc>([
      ['/sitemap.xml', { body: urlsetXml(['https://z.example/1']), version: 1 }],
    ]);
    const server = await siteServer(docs);
    servers.push(server);
    const url = `${server.origin}/sitemap.xml`;
    const first = await audit(url);
    await dropPartition('sitemap_entries', first.id);
    server.requests.length = 0;
    const next = await audit(url);
    expect(server.requests.map(conditions)).toEqual([{ ifNoneMatch: null, ifModifiedSince: null }]);
    expect(next.files).toEqual([
      expect.objectContaining({ status: 'ok', httpStatus: 200, reusedFrom: null }),
    ]);
  });

  it("looks for copies in the site's three newest audits only", async () => {
    const docs = new Map<string, Doc>([
      ['/index.xml', { body: '', version: 1 }],
      ['/flaky.xml', { body: urlsetXml(['https://w.example/1']), version: 1 }],
    ]);
    const server = await siteServer(docs);
    servers.push(server);
    docs.set('/index.xml', { body: indexXml(server.origin, ['/flaky.xml']), version: 1 });
    const url = `${server.origin}/index.xml`;
    await audit(url);
    // flaky.xml then fails (404) in three audits in a row: its only copy is in the fourth newest.
    const flaky = docs.get('/flaky.xml') as Doc;
    docs.delete('/flaky.xml');
    for (let i = 0; i < 3; i++) await audit(url);
    docs.set('/flaky.xml', flaky);
    server.requests.length = 0;
    await audit(url);
    const [index, child] = server.requests.map(conditions);
    expect(index?.ifNoneMatch).toBe('"/index.xml-v1"');
    expect(child).toEqual({ ifNoneMatch: null, ifModifiedSince: null });
  });

  it('reports a copy dropped after the lookup as gone, leaving the load usable', async () => {
    const id = randomUUID();
    await insertAudit(id, 'reuse target', { normalization: 'exact' }, []);
    const load = await beginEntryLoad(id, 'exact');
    try {
      const gone = { ...copyOf(randomUUID()), fileId: 1 };
      expect(await load.reuse(1, gone, 100)).toBeNull();
      // The failed statement stayed inside its savepoint: the load still writes and commits.
      const writer = load.open(1);
      await writer.close();
      await load.commit();
    } catch (error) {
      await load.rollback();
      throw error;
    }
  });
});

function copyOf(auditId: string): PreviousCopy {
  return {
    fileId: 1,
    auditId,
    etag: '"x"',
    lastModified: null,
    kind: 'urlset',
    entries: 1,
    children: [],
    compressedBytes: null,
    uncompressedBytes: null,
    contentType: null,
    contentEncoding: null,
    gzipped: null,
    hasBom: null,
    warnings: [],
  };
}
