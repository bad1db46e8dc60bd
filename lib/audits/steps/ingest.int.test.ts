// The ingest job against the real database and real HTTP servers on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit, listSitemapFiles } from '@/lib/audits/data';
import { insertAudit, type NewSource } from '@/lib/audits/mutations';
import type { TAuditOptions } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { reapStaleRuns } from '@/lib/runs/reaper';
import { withEnv } from '@/lib/test-support/env';
import { type FixtureServer, startFixtureServer } from '@/lib/test-support/fixture-server';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep } from '@/lib/test-support/run-audit';

let server: FixtureServer;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ingest-test-'));

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

function upload(
  fixture: string,
  role: 'sitemap' | 'crawl' = 'sitemap',
  name = path.basename(fixture),
): NewSource {
  const dir = mkdtempSync(path.join(scratch, 'u-'));
  const storedPath = path.join(dir, name);
  copyFileSync(fixturePath(fixture), storedPath);
  return { role, kind: 'upload', fileName: name, storedPath };
}

async function ingest(sources: NewSource[], options: Partial<TAuditOptions> = {}) {
  const id = randomUUID();
  await insertAudit(id, 'test', { normalization: 'exact', ...options }, sources);
  await runAuditStep('ingest', id);
  // With a crawl export, ingest hands over to the reconcile job (run here as a worker would).
  if ((await getAudit(id))?.phase === 'reconcile_queued') await runAuditStep('reconcile', id);
  const audit = await getAudit(id);
  if (!audit) throw new Error('audit vanished');
  return { id, audit, files: (await listSitemapFiles(id)).items };
}

async function entryLocs(id: string): Promise<string[]> {
  const { rows } = await pool().query(
    'SELECT loc FROM sitemap_entries WHERE audit_id = $1 ORDER BY file_id, position',
    [id],
  );
  return rows.map((r) => r.loc);
}

describe('ingest from URLs', () => {
  it('follows a site root through robots.txt and an index to every urlset', async () => {
    const { id, audit, files } = await ingest([{ role: 'sitemap', kind: 'url', url: `${server.origin}/` }]);
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap).toEqual({ files: 5, filesFailed: 0, entries: 6, uniqueUrls: 6 });
    expect(files.map((f) => f.kind)).toEqual(['robots', 'index', 'urlset', 'urlset', 'urlset']);
    const [robots, index] = files;
    expect(index?.parentId).toBe(robots?.id);
    expect(
      files.slice(2).every((f) => f.parentId === index?.id && f.status === 'ok' && f.httpStatus === 200),
    ).toBe(true);
    expect((await entryLocs(id)).map((u) => new URL(u).pathname)).toEqual([
      '/minisite/page-01',
      '/minisite/page-02',
      '/minisite/page-03',
      '/minisite/page-04',
      '/minisite/page-05',
      '/minisite/page-06',
    ]);
    expect(audit.warnings.map((w) => w.code)).toContain('no_crawl');
  });

  it('reads gzip children recognised by their bytes and records compressed and uncompressed sizes', async () => {
    const { audit, files } = await ingest([
      { role: 'sitemap', kind: 'url', url: `${server.origin}/minisite/sitemapindex-1.xml.gz` },
    ]);
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap.entries).toBe(6);
    for (const file of files) {
      expect(file.compressedBytes).toBeGreaterThan(0);
      expect(file.uncompressedBytes).toBeGreaterThan(file.compressedBytes ?? 0);
    }
  });

  it('keeps the good files when a child 404s, and ends partial listing the failure', async () => {
    const { audit, files } = await ingest([
      {
        role: 'sitemap',
        kind: 'url',
        url: `${server.origin}/minisite/sitemapindex-with-invalid-sitemap.xml`,
      },
      { role: 'sitemap', kind: 'url', url: `${server.origin}/minisite/sitemap-03.xml` },
    ]);
    expect(audit.status).toBe('partial');
    expect(audit.sitemap.entries).toBe(3);
    const failed = files.filter((f) => f.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error?.code).toBe('http_404');
    expect(audit.errors).toEqual([expect.objectContaining({ code: 'http_404', source: failed[0]?.url })]);
  });

  it('detects cycles and repeated children, reading each file once', async () => {
    const dir = mkdtempSync(path.join(scratch, 'cycle-'));
    const index = (children: string[]) =>
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children
        .map((c) => `<sitemap><loc>https://example.invalid/${c}</loc></sitemap>`)
        .join('')}</sitemapindex>`;
    writeFileSync(path.join(dir, 'a.xml'), index(['a.xml', 'b.xml', 'leaf.xml', 'leaf.xml']));
    writeFileSync(path.join(dir, 'b.xml'), index(['a.xml']));
    writeFileSync(
      path.join(dir, 'leaf.xml'),
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.invalid/p</loc></url></urlset>',
    );
    const sources = ['a.xml', 'b.xml', 'leaf.xml'].map(
      (name): NewSource => ({
        role: 'sitemap',
        kind: 'upload',
        fileName: name,
        storedPath: path.join(dir, name),
      }),
    );
    const { audit, files } = await ingest(sources);
    expect(audit.sitemap.entries).toBe(1);
    const reads = files
      .filter((f) => f.status === 'ok')
      .map((f) => f.uploadName)
      .sort();
    expect(reads).toEqual(['a.xml', 'b.xml', 'leaf.xml']);
    const skipped = files
      .filter((f) => f.status === 'skipped')
      .map((f) => f.error?.code)
      .sort();
    expect(skipped).toEqual(['cycle', 'cycle', 'duplicate_child']);
    expect(audit.warnings.filter((w) => w.code === 'cycle')).toHaveLength(2);
  });

  it('parses a .gz file that the server already decoded in transport', async () => {
    const { audit, files } = await ingest([
      { role: 'sitemap', kind: 'url', url: `${server.origin}/transport-gzip/sitemap-03.xml.gz` },
    ]);
    expect(audit.status).toBe('succeeded');
    expect(files[0]).toMatchObject({ kind: 'urlset', entries: 3, status: 'ok' });
  });

  it('fails a file that keeps answering 5xx after bounded retries, and one that times out', async () => {
    process.env.FETCH_RETRIES = '1';
    process.env.FETCH_TIMEOUT_MS = '1500';
    try {
      const { audit, files } = await ingest([
        { role: 'sitemap', kind: 'url', url: `${server.origin}/status/503` },
        { role: 'sitemap', kind: 'url', url: `${server.origin}/slow` },
        { role: 'sitemap', kind: 'url', url: `${server.origin}/minisite/sitemap-01.xml` },
      ]);
      expect(audit.status).toBe('partial');
      expect(files.map((f) => [f.status, f.error?.code ?? null])).toEqual([
        ['failed', 'http_503'],
        ['failed', 'timeout'],
        ['ok', null],
      ]);
      expect(files[0]?.error?.message).toMatch(/HTTP 503 .*after 2 attempts/);
    } finally {
      delete process.env.FETCH_RETRIES;
      delete process.env.FETCH_TIMEOUT_MS;
    }
  });

  it('fails an audit whose only sitemap is missing, with a reason', async () => {
    const { audit } = await ingest([{ role: 'sitemap', kind: 'url', url: `${server.origin}/status/404` }]);
    expect(audit.status).toBe('failed');
    expect(audit.errors.map((e) => e.code)).toContain('http_404');
    expect(audit.errors.find((e) => e.code === 'audit_failed')?.message).toMatch(
      /No sitemap file could be read/,
    );
  });
});

describe('ingest from uploads', () => {
  it('reads an uploaded index through the uploaded children it names, without fetching them', async () => {
    const { id, audit, files } = await ingest([
      upload('index/aafeher-minisite/sitemap-02.xml.gz'),
      upload('index/aafeher-minisite/sitemapindex-1.xml.gz'),
      upload('index/aafeher-minisite/sitemap-01.xml.gz'),
      upload('index/aafeher-minisite/sitemap-03.xml.gz'),
    ]);
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap).toEqual({ files: 4, filesFailed: 0, entries: 6, uniqueUrls: 6 });
    expect(files[0]?.uploadName).toBe('sitemapindex-1.xml.gz');
    expect(files.slice(1).map((f) => f.uploadName)).toEqual([
      'sitemap-01.xml.gz',
      'sitemap-02.xml.gz',
      'sitemap-03.xml.gz',
    ]);
    expect(files.slice(1).every((f) => f.parentId === files[0]?.id && f.url === null)).toBe(true);
    expect(await entryLocs(id)).toHaveLength(6);
  });

  it('keeps entries read before an error and marks that file partial', async () => {
    const { audit, files } = await ingest([
      upload('xml/adv-regular_sitemap.xml'),
      upload('malformed/webignition-sitemap.invalid-unclosed-url-tag.xml'),
      upload('gzip/scrapy-unexpected-eof-truncated.gz'),
      upload('malformed/adv-error_sitemap.xml'),
    ]);
    expect(audit.status).toBe('partial');
    const byName = new Map(files.map((f) => [f.uploadName, f]));
    expect(byName.get('adv-regular_sitemap.xml')).toMatchObject({ status: 'ok', entries: 5 });
    const malformed = byName.get('adv-error_sitemap.xml');
    expect(malformed?.status).toBe('failed');
    expect(malformed?.error?.code).toBe('xml_malformed');
    expect(malformed?.error?.line).toBeGreaterThan(0);
    expect(byName.get('scrapy-unexpected-eof-truncated.gz')?.status).toBe('failed');
    expect(audit.errors.length).toBe(files.filter((f) => f.status === 'failed').length);
    expect(audit.sitemap.entries).toBeGreaterThanOrEqual(5);
  });

  it('counts duplicates instead of dropping them', async () => {
    const { audit } = await ingest([upload('large/refinebio-sitemap-2.xml')]);
    expect(audit.sitemap.entries).toBe(12_641);
    expect(audit.sitemap.uniqueUrls).toBe(12_523);
  });
});

describe('limits', () => {
  it('does not follow indexes deeper than SITEMAP_MAX_DEPTH and says so', async () => {
    const { audit, files } = await withEnv({ SITEMAP_MAX_DEPTH: '1' }, () =>
      ingest([{ role: 'sitemap', kind: 'url', url: `${server.origin}/` }]),
    );
    // robots.txt (depth 0) → index (depth 1) → urlsets (depth 2, too deep)
    expect(files.filter((f) => f.status === 'skipped').map((f) => f.error?.code)).toEqual([
      'too_deep',
      'too_deep',
      'too_deep',
    ]);
    expect(audit.sitemap.entries).toBe(0);
    const tooDeep = audit.warnings.filter((w) => w.code === 'too_deep');
    expect(tooDeep).toHaveLength(3);
    // Each warning names the file it is about.
    for (const [i, w] of tooDeep.entries())
      expect(w.message).toMatch(
        new RegExp(`^${server.origin}/minisite/sitemap-0${i + 1}\\.xml(\\.gz)?: Skipped`),
      );
  });

  it('stops at SITEMAP_MAX_FILES and SITEMAP_MAX_ENTRIES, keeping what was read', async () => {
    const files = await withEnv({ SITEMAP_MAX_FILES: '2' }, () =>
      ingest([{ role: 'sitemap', kind: 'url', url: `${server.origin}/minisite/sitemapindex-1.xml` }]),
    );
    expect(files.audit.status).toBe('partial');
    expect(files.audit.errors.map((e) => e.code)).toContain('too_many_files');
    expect(files.audit.sitemap.entries).toBe(1);

    const entries = await withEnv({ SITEMAP_MAX_ENTRIES: '40' }, () =>
      ingest([upload('xml/breakroom-sitemap-100-urls.xml')]),
    );
    expect(entries.audit.status).toBe('partial');
    expect(entries.audit.sitemap.entries).toBe(40);
    expect(entries.files[0]?.error?.code).toBe('too_many_entries');
  });
});

describe('crawl import', () => {
  it('imports a JSONL crawl graph with its keys and reports rejected lines', async () => {
    const crawl = path.join(mkdtempSync(path.join(scratch, 'c-')), 'crawl.jsonl');
    writeFileSync(
      crawl,
      [
        JSON.stringify({
          url: 'https://Example.com/a',
          status: 200,
          canonical_url: '/a',
          indexable: true,
          crawled_at: '2026-01-02T03:04:05Z',
        }),
        '{not json',
        JSON.stringify({ url: 'https://example.com/b', status: 301, redirect_url: 'https://example.com/c' }),
        JSON.stringify({ status: 200 }),
      ].join('\n'),
    );
    const { id, audit } = await ingest([
      upload('xml/adv-regular_sitemap.xml'),
      { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: crawl },
    ]);
    expect(audit.status).toBe('succeeded');
    expect(audit.crawl).toMatchObject({ rows: 2, rowsRejected: 2, format: 'jsonl' });
    expect(audit.crawl.rejections.map((r) => r.line)).toEqual([2, 4]);
    const { rows } = await pool().query(
      'SELECT url, key, canonical_key, redirect_key, status FROM crawl_pages WHERE audit_id = $1 ORDER BY line',
      [id],
    );
    expect(rows).toEqual([
      {
        url: 'https://Example.com/a',
        key: 'https://example.com/a',
        canonical_key: 'https://example.com/a',
        redirect_key: null,
        status: 200,
      },
      {
        url: 'https://example.com/b',
        key: 'https://example.com/b',
        canonical_key: null,
        redirect_key: 'https://example.com/c',
        status: 301,
      },
    ]);
    // What the loads learnt on the way (the reconcile job reads these instead of scanning).
    const facts = await pool().query(
      `SELECT sitemap_duplicate_keys, sitemap_newest_lastmod IS NOT NULL AS has_lastmod, crawl_duplicate_keys,
              crawl_latest_at FROM audits WHERE id = $1`,
      [id],
    );
    expect(facts.rows[0]).toEqual({
      sitemap_duplicate_keys: 0,
      has_lastmod: true,
      crawl_duplicate_keys: 0,
      crawl_latest_at: new Date('2026-01-02T03:04:05Z'),
    });
    expect(audit.timings).toMatchObject({
      sitemaps: expect.any(Number),
      crawl: expect.any(Number),
      ingest: expect.any(Number),
    });
  });

  it('records repeated crawl keys so the reconcile job merges them', async () => {
    const crawl = path.join(mkdtempSync(path.join(scratch, 'c-')), 'dup.jsonl');
    const line = (url: string) => JSON.stringify({ url, status: 200 });
    writeFileSync(
      crawl,
      [line('https://example.com/a'), line('https://EXAMPLE.com/a'), line('https://example.com/b')].join(
        '\n',
      ),
    );
    const { id } = await ingest([
      upload('xml/adv-regular_sitemap.xml'),
      { role: 'crawl', kind: 'upload', fileName: 'dup.jsonl', storedPath: crawl },
    ]);
    const { rows } = await pool().query('SELECT crawl_rows, crawl_duplicate_keys FROM audits WHERE id = $1', [
      id,
    ]);
    expect(rows[0]).toEqual({ crawl_rows: 3, crawl_duplicate_keys: 1 });
  });

  it('imports a Screaming Frog export fetched by URL and lists mapped and unmapped columns', async () => {
    const { audit } = await ingest([
      upload('xml/recon-ayrshire-sitemap.xml'),
      {
        role: 'crawl',
        kind: 'url',
        url: `${server.origin}/fixtures/crawl-exports/recon-ayrshire-internal_all.csv`,
      },
    ]);
    expect(audit.status).toBe('succeeded');
    expect(audit.crawl.format).toBe('screaming-frog');
    expect(audit.crawl.rows).toBe(58);
    expect(audit.crawl.mappedColumns.url).toBe('Address');
    expect(audit.crawl.unmappedColumns).toContain('Title 1');
  });

  it('ends partial with a specific error when no crawl row is valid', async () => {
    const crawl = path.join(mkdtempSync(path.join(scratch, 'c-')), 'bad.jsonl');
    writeFileSync(crawl, '{"nope": 1}\n{"also": 2}\n');
    const { audit } = await ingest([
      upload('xml/adv-regular_sitemap.xml'),
      { role: 'crawl', kind: 'upload', fileName: 'bad.jsonl', storedPath: crawl },
    ]);
    expect(audit.status).toBe('partial');
    expect(audit.sitemap.entries).toBe(5);
    expect(audit.errors.some((e) => e.source === 'bad.jsonl')).toBe(true);
  });
});

describe('idempotency', () => {
  it('never duplicates rows when a retry runs after a worker died with its rows written', async () => {
    const { id } = await ingest([upload('xml/breakroom-sitemap-100-urls.xml')]);
    // As if the worker died after its COPY, before the step's state change: the reaper gives it attempt 2.
    await pool().query(
      `UPDATE audits SET status = 'running', step = 'ingest', claimed_at = now() - interval '1 hour',
         heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    expect(await reapStaleRuns([auditRun])).toContainEqual(
      expect.objectContaining({ id, attempt: 2, step: 'ingest' }),
    );
    await runAuditStep('ingest', id, 2);
    const audit = await getAudit(id);
    expect(audit?.status).toBe('succeeded');
    expect(audit?.sitemap.entries).toBe(100);
    expect(await entryLocs(id)).toHaveLength(100);
    expect((await listSitemapFiles(id)).items).toHaveLength(1);
  });

  it('runs a step once when its job is delivered twice', async () => {
    const id = randomUUID();
    await insertAudit(id, 'twice', { normalization: 'exact' }, [
      upload('xml/breakroom-sitemap-100-urls.xml'),
    ]);
    await Promise.all([runAuditStep('ingest', id), runAuditStep('ingest', id)]);
    expect((await getAudit(id))?.status).toBe('succeeded');
    expect(await entryLocs(id)).toHaveLength(100);
    expect((await listSitemapFiles(id)).items).toHaveLength(1);
  });

  it('ignores a job for an attempt that was superseded', async () => {
    const id = randomUUID();
    await insertAudit(id, 'stale', { normalization: 'exact' }, [
      upload('xml/breakroom-sitemap-100-urls.xml'),
    ]);
    await pool().query('UPDATE audits SET attempt = 2 WHERE id = $1', [id]);
    await runAuditStep('ingest', id);
    expect((await getAudit(id))?.status).toBe('queued');
    expect(await entryLocs(id)).toHaveLength(0);
  });
});

describe('crawl rows whose URL does not parse', () => {
  it('are rejected with their line, not stored with an empty key', async () => {
    const crawl = path.join(mkdtempSync(path.join(scratch, 'c-')), 'odd.jsonl');
    writeFileSync(
      crawl,
      `${JSON.stringify({ url: 'https://example.com/ok', status: 200 })}\n${JSON.stringify({ url: 'https://exa mple.com/x', status: 200 })}\n`,
    );
    const { id, audit } = await ingest([
      upload('xml/adv-regular_sitemap.xml'),
      { role: 'crawl', kind: 'upload', fileName: 'odd.jsonl', storedPath: crawl },
    ]);
    expect(audit.crawl).toMatchObject({ rows: 1, rowsRejected: 1 });
    expect(audit.crawl.rejections).toEqual([{ line: 2, reason: expect.stringMatching(/not a valid URL/) }]);
    const { rows } = await pool().query('SELECT count(*)::int AS n FROM crawl_pages WHERE audit_id = $1', [
      id,
    ]);
    expect(rows[0].n).toBe(1);
  });
});
