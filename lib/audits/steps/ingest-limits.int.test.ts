// The ingest's bounded cost per input, against the real database and hostile HTTP servers
// on 127.0.0.1: hanging and slow-drip children, the per-audit fetch budget, concurrent fetches whose
// results do not depend on timing, and one hostile file among good ones.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAudit, listSitemapFiles } from '@/lib/audits/data';
import { insertAudit, type NewSource } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { withEnv } from '@/lib/test-support/env';
import { runAuditStep } from '@/lib/test-support/run-audit';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const indexXml = (children: string[]) =>
  `<sitemapindex xmlns="${NS}">${children.map((c) => `<sitemap><loc>${c.replaceAll('&', '&amp;')}</loc></sitemap>`).join('')}</sitemapindex>`;
const urlsetXml = (locs: string[]) =>
  `<urlset xmlns="${NS}">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const pages = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `https://example.com/${name}/${i + 1}`);

/** A server that records how many requests it holds at once, overall. */
interface Hostile {
  server: TestServer;
  inFlight: number;
  mostInFlight: number;
  /** Indexes by path, served at once. */
  indexes: Map<string, string[]>;
}

const held = new Set<http.ServerResponse>();

async function hostile(): Promise<Hostile> {
  const state: Hostile = {
    server: null as unknown as TestServer,
    inFlight: 0,
    mostInFlight: 0,
    indexes: new Map(),
  };
  state.server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.inFlight++;
    state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
    res.on('close', () => state.inFlight--);
    const children = state.indexes.get(url.pathname);
    if (children) return void res.end(indexXml(children));
    if (url.pathname.startsWith('/hang/')) return void held.add(res); // never answers
    if (url.pathname.startsWith('/drip/')) {
      // Headers at once, then one byte every 100 ms for ever: under every idle timeout.
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write(`<urlset xmlns="${NS}"><url><loc>https://example.com/drip</loc></url>`);
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const delay = Number(url.searchParams.get('delayMs') ?? 0);
    const name = url.pathname.replace(/^\/+|\.xml$/g, '').replaceAll('/', '-');
    setTimeout(() => res.end(urlsetXml(pages(name, Number(url.searchParams.get('n') ?? 3)))), delay);
  });
  return state;
}

let a: Hostile;
let b: Hostile;
beforeAll(async () => {
  a = await hostile();
  b = await hostile();
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await a.server.close();
  await b.server.close();
});

async function ingest(sources: NewSource[]) {
  const id = randomUUID();
  await insertAudit(id, 'limits', { normalization: 'exact' }, sources);
  const started = performance.now();
  await runAuditStep('ingest', id);
  const ms = performance.now() - started;
  const audit = await getAudit(id);
  if (!audit) throw new Error('audit vanished');
  return { id, audit, ms, files: (await listSitemapFiles(id)).items };
}

const urlSource = (url: string): NewSource => ({ role: 'sitemap', kind: 'url', url });

async function storedLocs(id: string): Promise<string[]> {
  const { rows } = await pool().query(
    `SELECT e.loc FROM sitemap_entries e JOIN sitemap_files f ON f.id = e.file_id
      WHERE e.audit_id = $1 ORDER BY f.position, e.position`,
    [id],
  );
  return rows.map((r) => r.loc);
}

describe('per-file fetch budget and concurrency', () => {
  it('times out 10 hanging children 4 at a time (per host): about 3 s, not 10 s', async () => {
    const children = Array.from({ length: 10 }, (_, i) => `${a.server.origin}/hang/${i}.xml`);
    a.indexes.set('/hang-index.xml', children);
    a.mostInFlight = 0;
    const { audit, files, ms } = await withEnv({ FETCH_TIMEOUT_MS: '1000' }, () =>
      ingest([urlSource(`${a.server.origin}/hang-index.xml`)]),
    );
    expect(files.map((f) => f.url)).toEqual([`${a.server.origin}/hang-index.xml`, ...children]);
    expect(files.slice(1).map((f) => [f.status, f.error?.code])).toEqual(
      children.map(() => ['failed', 'timeout']),
    );
    expect(files[1]?.error?.message).toMatch(/longer than 1 s \(FETCH_TIMEOUT_MS/);
    expect(audit.status).toBe('partial');
    // The index plus 4 hanging children at once; one at a time this took 10 s (43 s with the defaults).
    expect(a.mostInFlight).toBeLessThanOrEqual(5);
    // Measured: 5.4 s here (3 rounds of 1 s plus the step's fixed cost), 11.7 s one at a time.
    expect(ms).toBeLessThan(8000);
  });

  it('stops a slow-drip body at FETCH_TIMEOUT_MS, keeping what it had sent', async () => {
    const { files, audit } = await withEnv({ FETCH_TIMEOUT_MS: '1000' }, () =>
      ingest([urlSource(`${a.server.origin}/drip/1.xml`), urlSource(`${a.server.origin}/fine.xml`)]),
    );
    expect(files.map((f) => [f.status, f.error?.code ?? null, f.entries])).toEqual([
      ['failed', 'timeout', 1],
      ['ok', null, 3],
    ]);
    expect(audit.sitemap.entries).toBe(4);
  });

  it('fetches children of two hosts concurrently within both bounds, with results in index order', async () => {
    // The first children answer last: order, ids and positions must follow the index, not the clock.
    const children = Array.from({ length: 8 }, (_, i) => {
      const host = i % 2 === 0 ? a : b;
      return `${host.server.origin}/order/${i}.xml?delayMs=${(8 - i) * 150}&n=2`;
    });
    a.indexes.set('/order-index.xml', children);
    a.mostInFlight = 0;
    b.mostInFlight = 0;
    const { id, audit, files, ms } = await withEnv(
      { SITEMAP_FETCH_CONCURRENCY: '4', SITEMAP_FETCH_PER_HOST: '2' },
      () => ingest([urlSource(`${a.server.origin}/order-index.xml`)]),
    );
    expect(files.map((f) => [f.status, f.error?.message ?? null])).toEqual(files.map(() => ['ok', null]));
    expect(audit.status).toBe('succeeded');
    expect(files.map((f) => f.url)).toEqual([`${a.server.origin}/order-index.xml`, ...children]);
    const ids = files.map((f) => f.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(await storedLocs(id)).toEqual(
      children.flatMap((_, i) => [`https://example.com/order-${i}/1`, `https://example.com/order-${i}/2`]),
    );
    // b held 2 at once, a 2 children (+ the index before them); one at a time this took 5.4 s.
    expect(b.mostInFlight).toBe(2);
    expect(a.mostInFlight).toBeLessThanOrEqual(2);
    expect(ms).toBeLessThan(4000);
  });
});

describe('per-audit fetch budget', () => {
  it('stops at SITEMAP_AUDIT_FETCH_MS: files under way fail, the rest are skipped, the audit is partial', async () => {
    const children = [
      `${a.server.origin}/budget/good.xml`,
      ...Array.from({ length: 9 }, (_, i) => `${a.server.origin}/hang/budget-${i}.xml`),
    ];
    a.indexes.set('/budget-index.xml', children);
    const { audit, files, ms } = await withEnv(
      { FETCH_TIMEOUT_MS: '20000', SITEMAP_AUDIT_FETCH_MS: '1500' },
      () => ingest([urlSource(`${a.server.origin}/budget-index.xml`)]),
    );
    expect(ms).toBeLessThan(5000);
    expect(audit.status).toBe('partial');
    expect(audit.sitemap.entries).toBe(3);
    const byStatus = files.slice(1).map((f) => [f.status, f.error?.code ?? null]);
    // The file being read when the budget was spent fails with it; the rest (under way or not
    // started) are skipped with the same reason.
    expect(byStatus).toEqual([
      ['ok', null],
      ['failed', 'audit_budget_spent'],
      ...Array.from({ length: 8 }, () => ['skipped', 'audit_budget_spent']),
    ]);
    expect(files[2]?.error?.message).toMatch(/fetch time budget of 1500 ms \(SITEMAP_AUDIT_FETCH_MS\)/);
    expect(audit.errors.map((e) => e.code)).toContain('audit_budget_spent');
  });

  it('stops at SITEMAP_AUDIT_FETCH_BYTES', async () => {
    const children = Array.from({ length: 5 }, (_, i) => `${a.server.origin}/bytes/${i}.xml?n=40`);
    a.indexes.set('/bytes-index.xml', children);
    // Each child is about 1.9 KB: the third passes the budget.
    const { audit, files } = await withEnv(
      { SITEMAP_AUDIT_FETCH_BYTES: '5000', SITEMAP_FETCH_CONCURRENCY: '1' },
      () => ingest([urlSource(`${a.server.origin}/bytes-index.xml`)]),
    );
    expect(files.slice(1).map((f) => [f.status, f.error?.code ?? null])).toEqual([
      ['ok', null],
      ['ok', null],
      ['failed', 'audit_budget_spent'],
      ['skipped', 'audit_budget_spent'],
      ['skipped', 'audit_budget_spent'],
    ]);
    expect(files[3]?.error?.message).toMatch(/SITEMAP_AUDIT_FETCH_BYTES/);
    expect(audit.status).toBe('partial');
    expect(audit.sitemap.entries).toBeGreaterThanOrEqual(80);
  });

  it('stops at SITEMAP_AUDIT_INFLATED_BYTES across small gzip uploads, naming the file and the limit', async () => {
    // Four uploads of about 6 KB each that inflate to about 420 KB (10,000 short URLs): each is far
    // under the per-file cap, together they pass the audit's 1 MB; the bytes counted are the inflated.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'inflate-'));
    const sources: NewSource[] = [0, 1, 2, 3].map((n) => {
      const storedPath = path.join(dir, `part-${n}.xml.gz`);
      writeFileSync(storedPath, gzipSync(urlsetXml(pages(`p${n}`, 10_000))));
      return { role: 'sitemap', kind: 'upload', fileName: `part-${n}.xml.gz`, storedPath };
    });
    const { audit, files } = await withEnv({ SITEMAP_AUDIT_INFLATED_BYTES: '1000000' }, () =>
      ingest(sources),
    );
    expect(files.map((f) => [f.uploadName, f.status, f.error?.code ?? null])).toEqual([
      ['part-0.xml.gz', 'ok', null],
      ['part-1.xml.gz', 'ok', null],
      ['part-2.xml.gz', 'failed', 'inflate_budget_spent'],
      ['part-3.xml.gz', 'skipped', 'inflate_budget_spent'],
    ]);
    expect(files[2]?.error?.message).toBe(
      "part-2.xml.gz inflates past the 976.6 KiB of uncompressed data one audit's sitemap files may hold (SITEMAP_AUDIT_INFLATED_BYTES)",
    );
    expect(files[3]?.error?.message).toMatch(/^Skipped: .*\(SITEMAP_AUDIT_INFLATED_BYTES\) is spent$/);
    expect(audit.status).toBe('partial');
    expect(audit.sitemap.entries).toBeLessThan(30_000);
  });
});

describe('one hostile file among good ones', () => {
  it('keeps every good entry and ends partial; refused entries are counted, never stored', async () => {
    const hostileServer = await startTestServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      if (req.url === '/huge-loc.xml') {
        // A 20 MB <loc>, streamed: the parser keeps at most the limit of it.
        res.write(
          `<urlset xmlns="${NS}"><url><loc>https://example.com/before</loc></url><url><loc>https://example.com/`,
        );
        const block = 'a'.repeat(1024 * 1024);
        for (let i = 0; i < 20; i++) res.write(block);
        res.end('</loc></url><url><loc>https://example.com/after</loc></url></urlset>');
      } else if (req.url === '/deep.xml') {
        res.end(
          `<urlset xmlns="${NS}"><url><loc>https://example.com/deep</loc></url>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</urlset>`,
        );
      } else if (req.url === '/schemes.xml') {
        res.end(urlsetXml(['javascript:alert(1)', 'data:text/html,x', 'https://example.com/safe']));
      } else {
        res.end(urlsetXml(pages(`good${req.url}`, 5)));
      }
    });
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
      // What a worker killed mid-ingest leaves behind: removed by the next walk that spools to disk.
      const deadPid = spawnSync('true').pid;
      const stale = path.join(os.tmpdir(), `sitemap-audit-spool-${deadPid}-test`);
      mkdirSync(stale, { recursive: true });
      writeFileSync(path.join(stale, '1.body'), 'left over');
      const { id, audit, files, ms } = await ingest([
        urlSource(`${hostileServer.origin}/1`),
        urlSource(`${hostileServer.origin}/huge-loc.xml`),
        urlSource(`${hostileServer.origin}/deep.xml`),
        urlSource(`${hostileServer.origin}/schemes.xml`),
        // A directory where a file should be: reading it throws EISDIR, which used to fail the audit.
        { role: 'sitemap', kind: 'upload', fileName: 'broken.xml', storedPath: dir },
        urlSource(`${hostileServer.origin}/2`),
      ]);
      expect(ms).toBeLessThan(10_000);
      expect(audit.status).toBe('partial');
      const byUrl = new Map(files.map((f) => [f.url ?? f.uploadName, f]));
      expect(byUrl.get(`${hostileServer.origin}/huge-loc.xml`)).toMatchObject({ status: 'ok', entries: 2 });
      const refused = byUrl
        .get(`${hostileServer.origin}/huge-loc.xml`)
        ?.warnings.find((w) => w.code === 'loc_too_long');
      expect(refused).toMatchObject({ count: 1, examples: [{ position: 2 }] });
      expect(byUrl.get(`${hostileServer.origin}/deep.xml`)).toMatchObject({
        status: 'failed',
        entries: 1,
        error: { code: 'xml_too_deep', line: 1 },
      });
      expect(
        byUrl.get(`${hostileServer.origin}/schemes.xml`)?.warnings.find((w) => w.code === 'non_http_loc'),
      ).toMatchObject({
        count: 2,
      });
      expect(byUrl.get('broken.xml')).toMatchObject({ status: 'failed', error: { code: 'read_failed' } });
      expect(byUrl.get('broken.xml')?.error?.message).toMatch(/EISDIR/);
      const locs = await storedLocs(id);
      expect(locs).toEqual([
        ...pages('good/1', 5),
        'https://example.com/before',
        'https://example.com/after',
        'https://example.com/deep',
        'https://example.com/safe',
        ...pages('good/2', 5),
      ]);
      const { rows } = await pool().query(
        'SELECT max(length(loc))::int AS longest FROM sitemap_entries WHERE audit_id = $1',
        [id],
      );
      expect(rows[0].longest).toBeLessThanOrEqual(2048);
      // The 20 MB file went through a spool file; nothing of it, or of the dead worker, is left.
      expect(existsSync(stale)).toBe(false);
      expect(
        readdirSync(os.tmpdir()).filter((n) => n.startsWith(`sitemap-audit-spool-${process.pid}-`)),
      ).toEqual([]);
    } finally {
      await hostileServer.close();
    }
  });
});
