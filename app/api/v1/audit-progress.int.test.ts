// Every counter shown while an audit runs agrees with the others at any moment. A real
// ingest reads a sitemap index whose children a server on 127.0.0.1 releases one by one and a crawl
// export it trickles (its first 5,000 rows at once, the rest after the tree is read); meanwhile the audit
// (GET /audits/{id}), its row in the list (GET /audits) and its file tree (GET /audits/{id}/sitemaps) are
// sampled again and again, and every sample must agree with itself: progress counts what the tiles count,
// done ≤ total, the phase fits what is counted, and nothing counts backwards; and the tree, read just
// before the audit, never shows a file or an entry more than the audit's counters claim.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import type { AuditDto, AuditListItemDto, AuditPage, SitemapFilePage } from '@/lib/audits/schema';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { testCaller } from '@/lib/test-support/auth';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { GET as getOne } from './audits/[id]/route';
import { GET as getFiles } from './audits/[id]/sitemaps/route';
import { GET as list } from './audits/route';

const CHILDREN = 6;
const PER_CHILD = 500;
const CRAWL_ROWS = 20_000;
/** When each child sitemap is answered, after the first request of the ingest; the last one waits
 * until the sampler has seen the crawl's first rows counted (so the tree ends with rows already in). */
const childAt = (k: number) => 200 * k;
/** The crawl's rows after the first 5,000 (one batch of the reader) wait until the sampler has seen the
 * crawl phase (the tree read) twice. Either wait ends after this long at most. */
const LATEST_MS = 20_000;

const viewer = await testCaller('viewer');
let server: TestServer;
let startedAt = 0;
/** A promise and the function that settles it, for the sampler to release what the server holds back. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened: Promise.race([opened, sleep(LATEST_MS)]), open };
}
const crawlCounted = gate();
const crawlPhaseSeen = gate();

const crawlLine = (i: number) => `${JSON.stringify({ url: `https://shop.example/p-${i}`, status: 200 })}\n`;

async function trickleCrawl(res: http.ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  let rows = '';
  for (let i = 0; i < 5000; i++) rows += crawlLine(i);
  res.write(rows);
  await crawlPhaseSeen.opened;
  // The rest in three pieces, 150 ms apart, so the crawl phase is seen with rows still arriving.
  for (let part = 0; part < 3; part++) {
    let text = '';
    const from = 5000 + part * 5000;
    for (let i = from; i < Math.min(CRAWL_ROWS, from + 5000); i++) text += crawlLine(i);
    res.write(text);
    await sleep(150);
  }
  res.end();
}

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (startedAt === 0) startedAt = Date.now();
    const url = req.url ?? '';
    if (url === '/crawl.jsonl') return void trickleCrawl(res);
    if (url === '/index.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const children = Array.from(
        { length: CHILDREN },
        (_, k) => `<sitemap><loc>${server.origin}/s-${k + 1}.xml</loc></sitemap>`,
      );
      return void res.end(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.join('')}</sitemapindex>`,
      );
    }
    const child = /^\/s-(\d+)\.xml$/.exec(url);
    if (child) {
      const k = Number(child[1]);
      const locs = Array.from(
        { length: PER_CHILD },
        (_, j) => `<url><loc>https://shop.example/s${k}-${j}</loc></url>`,
      );
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`);
      };
      const at = sleep(Math.max(0, startedAt + childAt(k) - Date.now()));
      void (k === CHILDREN ? Promise.all([at, crawlCounted.opened]) : at).then(answer);
      return;
    }
    res.writeHead(404).end();
  });
});
afterAll(() => server.close());

/** The order phases come in; a sample never goes back to an earlier one. */
const PHASE_ORDER = [
  'queued',
  'starting',
  'sitemaps',
  'indexing_sitemaps',
  'crawl',
  'reconcile_queued',
  'reconciling',
  'done',
];

interface Sample {
  phase: string;
  status: string;
  progress: { done: number; total: number };
  files: number;
  crawlRows: number;
}

/** What must hold inside one sample, whichever read it came from. */
function expectAgrees(s: Sample, where: string) {
  const at = `${where} ${JSON.stringify(s)}`;
  expect(PHASE_ORDER, at).toContain(s.phase);
  if (s.progress.total > 0) expect(s.progress.done, at).toBeLessThanOrEqual(s.progress.total);
  if (s.phase === 'sitemaps' || s.phase === 'indexing_sitemaps') expect(s.progress.done, at).toBe(s.files);
  if (s.phase === 'indexing_sitemaps') expect(s.files, at).toBe(CHILDREN + 1);
  if (s.phase === 'crawl') {
    // The tree is read, and the progress counts the crawl rows the tile shows.
    expect(s.files, at).toBe(CHILDREN + 1);
    expect(s.progress.done, at).toBe(s.crawlRows);
  }
  if (['queued', 'starting', 'reconcile_queued', 'reconciling'].includes(s.phase))
    expect(s.progress, at).toEqual({ done: 0, total: 0 });
}

/** What must hold from one sample of a read to its next. */
function expectForward(prev: Sample, next: Sample, where: string) {
  const at = `${where} ${JSON.stringify(prev)} → ${JSON.stringify(next)}`;
  expect(PHASE_ORDER.indexOf(next.phase), at).toBeGreaterThanOrEqual(PHASE_ORDER.indexOf(prev.phase));
  expect(next.files, at).toBeGreaterThanOrEqual(prev.files);
  expect(next.crawlRows, at).toBeGreaterThanOrEqual(prev.crawlRows);
  if (next.phase === prev.phase) expect(next.progress.done, at).toBeGreaterThanOrEqual(prev.progress.done);
}

const ofAudit = (a: AuditDto): Sample => ({
  phase: a.phase,
  status: a.status,
  progress: a.progress,
  files: a.sitemap.files,
  crawlRows: a.crawl.rows,
});
/** What the tree shows: its files read, the URL entries of its URL sets, and any file still pending. */
interface TreeSample {
  files: number;
  entries: number;
  pending: number;
}

const ofTree = (page: SitemapFilePage): TreeSample => ({
  files: page.items.filter((f) => f.status !== 'pending').length,
  entries: page.items.filter((f) => f.kind === 'urlset').reduce((sum, f) => sum + f.entries, 0),
  pending: page.items.filter((f) => f.status === 'pending').length,
});

const ofListItem = (a: AuditListItemDto): Sample => ({
  phase: a.phase,
  status: a.status,
  progress: a.progress,
  files: a.sitemap.files,
  crawlRows: a.crawl.rows,
});

describe('progress while an audit runs', () => {
  it('agrees with the totals in every sample of the audit and of the list', async () => {
    const id = randomUUID();
    const name = `Trickled ${id.slice(0, 8)}`;
    await insertAudit(id, name, { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${server.origin}/index.xml` },
      { role: 'crawl', kind: 'url', url: `${server.origin}/crawl.jsonl` },
    ]);
    let finished = false;
    const ingest = runAuditStep('ingest', id).finally(() => {
      finished = true;
    });

    const audits: Sample[] = [];
    const items: Sample[] = [];
    /** Each tree sample with the audit sample read right after it. */
    const trees: { tree: TreeSample; audit: AuditDto }[] = [];
    const sample = async () => {
      const files = await getFiles(viewer.request(`http://localhost/api/v1/audits/${id}/sitemaps`), {
        params: Promise.resolve({ id }),
      });
      const tree = ofTree((await files.json()) as SitemapFilePage);
      const one = await getOne(viewer.request(`http://localhost/api/v1/audits/${id}`), {
        params: Promise.resolve({ id }),
      });
      const audit = (await one.json()) as AuditDto;
      audits.push(ofAudit(audit));
      trees.push({ tree, audit });
      const query = new URLSearchParams({ q: name });
      const page = (await (
        await list(viewer.request(`http://localhost/api/v1/audits?${query}`), undefined)
      ).json()) as AuditPage;
      const item = page.items[0];
      if (item) items.push(ofListItem(item));
    };
    while (!finished) {
      await sample();
      if (audits.some((s) => s.phase === 'sitemaps' && s.crawlRows >= 5000)) crawlCounted.open();
      if (audits.filter((s) => s.phase === 'crawl').length >= 2 && items.some((s) => s.phase === 'crawl'))
        crawlPhaseSeen.open();
      await sleep(40);
    }
    await ingest;
    // Once more after the step's state change, which the loop may have stopped just before.
    await sample();

    for (const [where, samples] of [
      ['audit', audits],
      ['list', items],
    ] as const) {
      for (const [i, sample] of samples.entries()) {
        expectAgrees(sample, where);
        const prev = samples[i - 1];
        if (prev) expectForward(prev, sample, where);
      }
    }
    // The tree never runs ahead of the counters: each of its samples shows no more files read and no more
    // URL entries than the audit read just after it counts, and no file half read while it runs.
    for (const { tree, audit } of trees) {
      const at = `${JSON.stringify(tree)} vs ${JSON.stringify(audit.sitemap)} (${audit.phase})`;
      expect(tree.files, at).toBeLessThanOrEqual(audit.sitemap.files);
      expect(tree.entries, at).toBeLessThanOrEqual(audit.sitemap.entries);
      if (audit.status === 'running') expect(tree.pending, at).toBe(0);
    }
    // Not vacuous: the tree was seen part read, and the crawl phase with rows already counted.
    expect(trees.some(({ tree }) => tree.files > 1 && tree.files < CHILDREN + 1)).toBe(true);
    expect(
      audits.some((s) => s.phase === 'sitemaps' && s.progress.done > 0 && s.progress.done < s.progress.total),
    ).toBe(true);
    expect(audits.some((s) => s.phase === 'crawl' && s.crawlRows >= 5000)).toBe(true);
    expect(items.some((s) => s.phase === 'crawl')).toBe(true);
    expect(audits.at(-1)).toMatchObject({
      phase: 'reconcile_queued',
      files: CHILDREN + 1,
      crawlRows: CRAWL_ROWS,
    });
  });
});
