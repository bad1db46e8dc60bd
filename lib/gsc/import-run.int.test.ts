// The gsc_import run kind end to end: uploads posted to the route, the parse step run through the real step
// runner (claim, handler, outcome transaction), the rows read back from Postgres and through the GET
// routes; every real export in ../shared/fixtures/gsc, loose and zipped, each into an audit of its own site;
// the refusals (400) of a lone Table.csv without its issue and of another site's export, through the route.
// The route and the step both check, so nothing of a refused request reaches a run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELETE as deleteRoute,
  GET as getRoute,
} from '@/app/api/v1/audits/[id]/gsc/imports/[importId]/route';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/gsc/imports/route';
import { POST as postRoute } from '@/app/api/v1/audits/[id]/gsc/route';
import { GET as gapsRoute } from '@/app/api/v1/audits/[id]/gsc/sitemaps/route';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { currentGscStatesSql } from '@/lib/findings/evidence/gsc-current';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import type { GscGapsDto } from './gaps-shape';
import { gscImportRun } from './import-run';
import type { GscImportDto } from './import-schema';
import { buildZip } from './test-zip';

/** An import's uploads as a folder of DATA_DIR/uploads: where the disk store keeps its prefix, and where
 * imports queued before lib/storage kept their files by path. */
function importUploadDir(auditId: string, importId: string): string {
  return path.join(uploadsDir(), auditId, 'gsc', importId);
}

const FIXTURES = fixturePath('gsc');
const fixture = (folder: string, file: string) => readFileSync(path.join(FIXTURES, folder, file));

let auditId = '';
let reviewer: TestCaller;
let viewer: TestCaller;
let admin: TestCaller;

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const base = (audit: string) => `http://localhost/api/v1/audits/${audit}/gsc`;

type Upload = { name: string; data: Buffer | string };

function post(
  files: Upload[],
  caller = reviewer,
  audit = auditId,
  fields: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files)
    form.append('files', new Blob([typeof f.data === 'string' ? f.data : new Uint8Array(f.data)]), f.name);
  return postRoute(caller.request(base(audit), { method: 'POST', body: form }), ctx({ id: audit }));
}

/** Posts the files and runs the import's step as the worker would; the import as the API shows it. */
async function imported(
  files: Upload[],
  audit = auditId,
  fields: Record<string, string> = {},
): Promise<GscImportDto> {
  const res = await post(files, reviewer, audit, fields);
  expect(res.status, await res.clone().text()).toBe(202);
  const { importId } = (await res.json()) as { importId: string };
  await runStep(gscImportRun, 'parse', { runId: importId, attempt: 1 });
  const got = await getRoute(
    viewer.request(`${base(audit)}/imports/${importId}`),
    ctx({ id: audit, importId }),
  );
  expect(got.status).toBe(200);
  return got.json();
}

async function countsOf(importId: string): Promise<Record<string, number>> {
  const { rows } = await pool().query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM gsc_url_states WHERE import_id = $1) AS urls,
            (SELECT count(*)::int FROM gsc_url_states WHERE import_id = $1 AND state = 'not_indexed') AS "notIndexed",
            (SELECT count(*)::int FROM gsc_chart_points WHERE import_id = $1) AS "chartPoints",
            (SELECT count(*)::int FROM gsc_issue_counts WHERE import_id = $1) AS issues,
            (SELECT coalesce(sum(pages), 0)::int FROM gsc_issue_counts WHERE import_id = $1) AS pages,
            (SELECT count(*)::int FROM gsc_sitemap_reports WHERE import_id = $1) AS sitemaps`,
    [importId],
  );
  return rows[0] ?? {};
}

/** Data lines of a chart file (every line after the header that is not blank), counted independently. */
function chartLines(folder: string): number {
  const file = path.join(FIXTURES, folder, 'Chart.csv');
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '').length;
}

/** What MANIFEST.md says each folder holds (Performance: Pages.csv only, the other tables are refused
 * when uploaded loose). */
const EXPECTED: Record<
  string,
  {
    urls: number;
    notIndexed: number;
    issues: number;
    pages: number;
    overviewChart: boolean;
    loose?: string[];
  }
> = {
  'cowboykimono-404_errors': { urls: 104, notIndexed: 104, issues: 0, pages: 0, overviewChart: false },
  'cowboykimono-canonical': { urls: 31, notIndexed: 31, issues: 0, pages: 0, overviewChart: false },
  'cowboykimono-coverage': { urls: 542, notIndexed: 542, issues: 0, pages: 0, overviewChart: false },
  'cowboykimono-overview': { urls: 0, notIndexed: 0, issues: 11, pages: 737, overviewChart: true },
  'dhmguide-drilldown-page-with-redirect': {
    urls: 46,
    notIndexed: 46,
    issues: 0,
    pages: 0,
    overviewChart: false,
  },
  'dhmguide-indexing-overview': { urls: 0, notIndexed: 0, issues: 9, pages: 209, overviewChart: false },
  'dhmguide-performance': {
    urls: 74,
    notIndexed: 0,
    issues: 0,
    pages: 0,
    overviewChart: false,
    loose: ['Pages.csv'],
  },
  'firstserveseattle-pages-report': { urls: 29, notIndexed: 29, issues: 4, pages: 44, overviewChart: false },
  'mikenelson-indexing-overview': { urls: 0, notIndexed: 0, issues: 9, pages: 22, overviewChart: true },
};

/** The site each folder's exports belong to (MANIFEST.md): an audit of that site takes them. */
const SITE_OF: Record<string, string> = {
  cowboykimono: 'https://www.cowboykimono.com/',
  dhmguide: 'https://www.dhmguide.com/',
  firstserveseattle: 'https://firstserveseattle.com/',
  mikenelson: 'https://mikenelsonguitarlessons.co.nz/',
};
const audits = new Map<string, Promise<string>>();

/** The audit of a folder's site (dhmguide's real sitemap; one declared home page for the others). */
function auditOf(folder: string): Promise<string> {
  const site = folder.split('-')[0] as string;
  if (site === 'dhmguide') return Promise.resolve(auditId);
  let audit = audits.get(site);
  if (!audit) {
    const home = SITE_OF[site] as string;
    audit = reconciledAuditOf(`GSC import ${site}`, {
      sitemaps: { 'sitemap.xml': urlsetXml([home]) },
      crawl: [JSON.stringify({ url: home, status: 200 })],
    });
    audits.set(site, audit);
  }
  return audit;
}

async function importCount(audit: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    'SELECT count(*)::int AS n FROM gsc_imports WHERE audit_id = $1',
    [audit],
  );
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  const sitemap = readFileSync(path.join(FIXTURES, '..', 'xml', 'recon-dhmguide-sitemap.xml'), 'utf8');
  auditId = await reconciledAuditOf('GSC import', {
    sitemaps: { 'sitemap.xml': sitemap },
    crawl: [JSON.stringify({ url: 'https://www.dhmguide.com/', status: 200 })],
  });
  [reviewer, viewer, admin] = await Promise.all([
    testCaller('reviewer'),
    testCaller('viewer'),
    testCaller('admin'),
  ]);
}, 60_000);

afterAll(async () => {
  await stopBoss();
});

describe('importing every real export', () => {
  it('has a count for every fixture folder', () => {
    expect(
      readdirSync(FIXTURES)
        .filter((f) => !f.includes('.'))
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [folder, want] of Object.entries(EXPECTED)) {
    it(`stores ${folder}, loose and as a zip, as MANIFEST.md counts it`, async () => {
      const names = readdirSync(path.join(FIXTURES, folder));
      const loose = (want.loose ?? names).map((name) => ({ name, data: fixture(folder, name) }));
      const zip = buildZip(names.map((name) => ({ name: `${folder}/${name}`, data: fixture(folder, name) })));
      const audit = await auditOf(folder);
      for (const files of [loose, [{ name: `${folder}.zip`, data: zip }]]) {
        const done = await imported(files, audit);
        expect(done.status, done.errorMessage ?? '').toBe('succeeded');
        expect(done.problems).toEqual([]);
        const counts = await countsOf(done.id);
        // The chart of a drilldown is not stored (only its last count, as chartTotal); an overview's is.
        expect(counts).toEqual({
          urls: want.urls,
          notIndexed: want.notIndexed,
          chartPoints: want.overviewChart ? chartLines(folder) : 0,
          issues: want.issues,
          pages: want.pages,
          sitemaps: 0,
        });
        expect(done.summary).toMatchObject({
          urls: want.urls,
          notIndexed: want.notIndexed,
          issues: want.issues,
        });
        // The uploads are gone once the step has read them.
        expect(existsSync(importUploadDir(audit, done.id))).toBe(false);
      }
    });
  }

  it('records what a drilldown covered and buckets its reason', async () => {
    const folder = 'dhmguide-drilldown-page-with-redirect';
    const done = await imported(
      ['Table.csv', 'Chart.csv', 'Metadata.csv'].map((n) => ({ name: n, data: fixture(folder, n) })),
    );
    expect(done.exports).toEqual([
      expect.objectContaining({
        kind: 'drilldown',
        rows: 46,
        chartTotal: 46,
        isTruncated: false,
        urlState: 'not_indexed',
        description: expect.objectContaining({ issue: 'Page with redirect', sitemap: 'All known pages' }),
      }),
    ]);
    expect(done.files.map((f) => f.kind).sort()).toEqual(['drilldown-chart', 'drilldown-table', 'metadata']);
    const { rows } = await pool().query(
      'SELECT DISTINCT reason, bucket, scope, source FROM gsc_url_states WHERE import_id = $1',
      [done.id],
    );
    expect(rows).toEqual([
      { reason: 'Page with redirect', bucket: 'redirects', scope: 'All known pages', source: 'drilldown' },
    ]);
  });

  it('lists the files of a zip it ignored', async () => {
    const folder = 'dhmguide-performance';
    const names = readdirSync(path.join(FIXTURES, folder));
    const zip = buildZip(names.map((name) => ({ name, data: fixture(folder, name) })));
    const done = await imported([{ name: 'perf.zip', data: zip }]);
    expect(done.ignored.map((f) => f.name).sort()).toEqual(names.filter((n) => n !== 'Pages.csv').sort());
  });
});

describe('a bad file', () => {
  it('fails the import naming the file and line, stores nothing and leaves earlier imports as they were', async () => {
    const audit = await reconciledAuditOf('GSC bad file', {
      sitemaps: { 's.xml': urlsetXml(['https://www.cowboykimono.com/a']) },
      crawl: [JSON.stringify({ url: 'https://www.cowboykimono.com/a', status: 200 })],
    });
    const folder = 'cowboykimono-404_errors';
    const good = ['Table.csv', 'Chart.csv', 'Metadata.csv'].map((n) => ({
      name: n,
      data: fixture(folder, n),
    }));
    const earlier = await imported(good, audit);
    expect(earlier.status).toBe('succeeded');
    const before = await countsOf(earlier.id);

    const bad = {
      name: 'Broken table.csv',
      data: 'URL,Last crawled\nhttps://example.com/a,2025-01-31\nhttps://example.com/b,last week\n',
    };
    const failed = await imported([...good, bad], audit);
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toContain('Broken table.csv line 3');
    expect(failed.problems).toEqual([
      {
        name: 'Broken table.csv',
        problems: [{ line: 3, message: expect.stringContaining("found 'last week'") }],
      },
    ]);
    expect(await countsOf(failed.id)).toEqual({
      urls: 0,
      notIndexed: 0,
      chartPoints: 0,
      issues: 0,
      pages: 0,
      sitemaps: 0,
    });
    expect(failed.exports).toEqual([]);
    expect(failed.summary).toBeNull();
    expect(await countsOf(earlier.id)).toEqual(before);
    expect(existsSync(importUploadDir(audit, failed.id))).toBe(false);
  });

  it('stores every row once after an attempt that died midway, and counts none before it succeeds', async () => {
    const audit = await auditOf('cowboykimono-404_errors');
    const zip = buildZip(
      ['cowboykimono-404_errors', 'cowboykimono-canonical'].flatMap((folder) =>
        readdirSync(path.join(FIXTURES, folder)).map((name) => ({
          name: `${folder}/${name}`,
          data: fixture(folder, name),
        })),
      ),
    );
    const res = await post([{ name: 'two.zip', data: zip }], reviewer, audit);
    expect(res.status).toBe(202);
    const { importId } = (await res.json()) as { importId: string };
    // What a worker killed after its first batch leaves: rows of the import, which is not finished.
    const leftover = 'https://www.cowboykimono.com/left-by-a-dead-attempt';
    await pool().query(
      `INSERT INTO gsc_url_states (import_id, audit_id, export_index, line, url, key, state, source)
       VALUES ($1, $2, 0, 2, $3, $3, 'not_indexed', 'drilldown')`,
      [importId, audit, leftover],
    );
    const current = async () =>
      (
        await pool().query<{ url: string }>(`SELECT url FROM (${currentGscStatesSql('$1')}) g`, [audit])
      ).rows.map((r) => r.url);
    expect(await current()).not.toContain(leftover);
    await runStep(gscImportRun, 'parse', { runId: importId, attempt: 1 });
    const counts = await countsOf(importId);
    expect(counts.urls).toBe(104 + 31);
    const { rows } = await pool().query('SELECT 1 FROM gsc_url_states WHERE url = $1', [leftover]);
    expect(rows).toEqual([]);
  });

  it('refuses what is not an export before any run: an image, an empty file, a viewer', async () => {
    expect((await post([{ name: 'shot.png', data: 'x' }])).status).toBe(400);
    expect((await post([{ name: 'Table.csv', data: '' }])).status).toBe(400);
    expect((await post([])).status).toBe(400);
    const folder = 'cowboykimono-canonical';
    expect((await post([{ name: 'Table.csv', data: fixture(folder, 'Table.csv') }], viewer)).status).toBe(
      403,
    );
  });

  it('refuses a CSV larger than an export can be (413)', async () => {
    const res = await post([{ name: 'Table.csv', data: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') }]);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('Table.csv is larger than the 10 MiB');
  });
});

describe('a lone Table.csv', () => {
  const folder = 'cowboykimono-404_errors';
  const table = () => ({ name: 'Table.csv', data: fixture(folder, 'Table.csv') });

  it('is refused (400) naming the file and what is missing when the request names no issue', async () => {
    const audit = await auditOf(folder);
    const before = await importCount(audit);
    for (const files of [
      [table()],
      [{ name: 'shared.zip', data: buildZip([{ name: 'x/Table.csv', data: fixture(folder, 'Table.csv') }]) }],
    ]) {
      const res = await post(files, reviewer, audit);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { message: string } };
      expect(error.message).toMatch(
        /Table\.csv: a drill-down table without its Metadata\.csv does not say which issue/,
      );
      expect(error.message).toContain("'issue' field");
    }
    // Nothing was created: no run, no row, no upload left behind.
    expect(await importCount(audit)).toBe(before);
  });

  it('is imported under the issue the request names', async () => {
    const audit = await auditOf(folder);
    const done = await imported([table()], audit, { issue: 'Not found (404)' });
    expect(done.status, done.errorMessage ?? '').toBe('succeeded');
    expect(done.exports).toEqual([
      expect.objectContaining({
        kind: 'drilldown',
        rows: 104,
        urlState: 'not_indexed',
        description: expect.objectContaining({ issue: 'Not found (404)' }),
        warnings: expect.arrayContaining([
          expect.stringContaining('the issue was named on import (Not found (404))'),
        ]),
      }),
    ]);
    expect(await countsOf(done.id)).toMatchObject({ urls: 104, notIndexed: 104 });
    const { rows } = await pool().query(
      'SELECT DISTINCT reason, bucket FROM gsc_url_states WHERE import_id = $1',
      [done.id],
    );
    expect(rows).toEqual([{ reason: 'Not found (404)', bucket: 'http_404' }]);
    // An indexed issue stores indexed URLs.
    const indexed = await imported([table()], audit, { issue: 'Indexed' });
    expect(indexed.exports[0]?.urlState).toBe('indexed');
  });

  it('keeps the Metadata.csv issue of a table that has one, and refuses an issue Google does not use', async () => {
    const audit = await auditOf(folder);
    const withMeta = await imported(
      ['Table.csv', 'Metadata.csv'].map((n) => ({ name: n, data: fixture(folder, n) })),
      audit,
      { issue: 'Soft 404' },
    );
    expect(withMeta.exports[0]?.description.issue).toBe('Not found (404)');
    const res = await post([table()], reviewer, audit, { issue: 'Pages that are sad' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("'Pages that are sad' is not a reason Search Console uses");
    // Two lone tables cannot share one issue.
    const two = await post(
      [table(), { name: 'Table (1).csv', data: fixture('cowboykimono-canonical', 'Table.csv') }],
      reviewer,
      audit,
      { issue: 'Not found (404)' },
    );
    expect(two.status).toBe(400);
    expect(await two.text()).toContain('import them one at a time');
  });
});

describe("another site's export", () => {
  it('is refused (400) naming its host, loose or zipped, and nothing is created', async () => {
    const files = (folder: string) =>
      readdirSync(path.join(FIXTURES, folder)).map((name) => ({ name, data: fixture(folder, name) }));
    const dhmAudit = auditId;
    const before = await importCount(dhmAudit);
    // firstserveseattle's page report into dhmguide's audit (scenario R2's sitemap).
    const loose = await post(files('firstserveseattle-pages-report'), reviewer, dhmAudit);
    expect(loose.status).toBe(400);
    const looseText = await loose.text();
    expect(looseText).toContain('Table.csv line 2: its URLs belong to another site: firstserveseattle.com (');
    expect(looseText).toContain('www.firstserveseattle.com (1 URL)');
    expect(looseText).toContain("this audit's sitemaps declare www.dhmguide.com");
    // cowboykimono's drill-down, as the zip Search Console downloads.
    const folder = 'cowboykimono-canonical';
    const zip = buildZip(
      readdirSync(path.join(FIXTURES, folder)).map((name) => ({ name, data: fixture(folder, name) })),
    );
    const zipped = await post([{ name: 'canonical.zip', data: zip }], reviewer, dhmAudit);
    expect(zipped.status).toBe(400);
    expect(await zipped.text()).toContain(
      'belong to another site: api.cowboykimono.com (12 URLs), admin.cowboykimono.com (10 URLs), cowboykimono.com (5 URLs) and 1 more host',
    );
    // dhmguide's drill-down into cowboykimono's audit.
    const other = await post(
      files('dhmguide-drilldown-page-with-redirect'),
      reviewer,
      await auditOf('cowboykimono'),
    );
    expect(other.status).toBe(400);
    expect(await other.text()).toMatch(/www\.dhmguide\.com \(33 URLs\), dhmguide\.com \(13 URLs\)/);
    expect(await importCount(dhmAudit)).toBe(before);
  });

  it("accepts the www / non-www twin and the domain's subdomains (a domain property's export)", async () => {
    // cowboykimono's 404s are on the apex, www., api. and other subdomains; the audit declares www.
    const audit = await auditOf('cowboykimono');
    const folder = 'cowboykimono-404_errors';
    const done = await imported(
      readdirSync(path.join(FIXTURES, folder)).map((name) => ({ name, data: fixture(folder, name) })),
      audit,
    );
    expect(done.status, done.errorMessage ?? '').toBe('succeeded');
    expect(done.summary?.urls).toBe(104);
  });
});

describe('the band of a thinly known file, from real exports', () => {
  it('is "insufficient" with 5 known URLs of 177, and judged once enough is known', async () => {
    const sitemap = readFileSync(path.join(FIXTURES, '..', 'xml', 'recon-dhmguide-sitemap.xml'), 'utf8');
    const audit = await reconciledAuditOf('GSC thin', {
      sitemaps: { 'sitemap.xml': sitemap },
      crawl: [JSON.stringify({ url: 'https://www.dhmguide.com/', status: 200 })],
    });
    const declared = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').trim()));
    // dhmguide's real Performance Pages.csv: its first 5 lines that are declared, then the whole file.
    const lines = fixture('dhmguide-performance', 'Pages.csv').toString('utf8').split(/\r?\n/);
    const five = (lines.slice(1).filter((l) => declared.has(l.split(',')[0] ?? '')) as string[]).slice(0, 5);
    expect(five).toHaveLength(5);
    const gaps = async () => {
      const res = await gapsRoute(viewer.request(`${base(audit)}/sitemaps`), ctx({ id: audit }));
      expect(res.status).toBe(200);
      return ((await res.json()) as GscGapsDto).sitemaps[0];
    };
    await imported([{ name: 'Pages.csv', data: [lines[0], ...five].join('\n') }], audit);
    expect(await gaps()).toMatchObject({
      submitted: 177,
      indexed: 5,
      notIndexed: 0,
      gapPct: 0,
      band: 'insufficient',
    });
    await imported([{ name: 'Pages.csv', data: fixture('dhmguide-performance', 'Pages.csv') }], audit);
    expect(await gaps()).toMatchObject({ submitted: 177, indexed: 38, notIndexed: 0, band: 'normal' });
  });
});

describe('the current state of a URL', () => {
  const table = (rows: string[]) => `URL,Last crawled\n${rows.map((u) => `${u},2025-01-31`).join('\n')}\n`;
  const meta = (issue: string) => `Property,Value\nSitemap,All known pages\nIssue,${issue}\n`;
  const pages = (rows: string[]) =>
    `Top pages,Clicks,Impressions\n${rows.map((u) => `${u},1,10`).join('\n')}\n`;

  async function current(audit: string) {
    const { rows } = await pool().query<{ key: string; state: string; reason: string | null }>(
      `SELECT key, state, reason FROM (${currentGscStatesSql('$1')}) g ORDER BY key`,
      [audit],
    );
    return rows;
  }

  it('takes the latest import, and within one import not indexed over indexed, else the first reason', async () => {
    const audit = await reconciledAuditOf('GSC merge', {
      sitemaps: { 's.xml': urlsetXml(['https://example.com/a']) },
      crawl: [JSON.stringify({ url: 'https://example.com/a', status: 200 })],
    });
    // Two drilldowns and a Performance table in one zip (one folder each), as one import.
    const zip = buildZip([
      { name: 'a/Table.csv', data: table(['https://example.com/a', 'https://example.com/b']) },
      { name: 'a/Metadata.csv', data: meta('Not found (404)') },
      { name: 'b/Table.csv', data: table(['https://example.com/b', 'https://example.com/c']) },
      { name: 'b/Metadata.csv', data: meta('Page with redirect') },
      { name: 'Pages.csv', data: pages(['https://example.com/a', 'https://example.com/d']) },
    ]);
    const first = await imported([{ name: 'exports.zip', data: zip }], audit);
    expect(first.status, first.errorMessage ?? '').toBe('succeeded');
    expect(await current(audit)).toEqual([
      { key: 'https://example.com/a', state: 'not_indexed', reason: 'Not found (404)' },
      { key: 'https://example.com/b', state: 'not_indexed', reason: 'Not found (404)' },
      { key: 'https://example.com/c', state: 'not_indexed', reason: 'Page with redirect' },
      { key: 'https://example.com/d', state: 'indexed', reason: null },
    ]);
    // A later import supersedes: /a is now indexed (it had impressions), /c has another reason.
    await imported(
      [
        { name: 'Pages.csv', data: pages(['https://example.com/a']) },
        { name: 'Table.csv', data: table(['https://example.com/c']) },
        { name: 'Metadata.csv', data: meta('Crawled - currently not indexed') },
      ],
      audit,
    );
    // A failed import changes nothing.
    await imported([{ name: 'Pages.csv', data: 'Top pages,Clicks,Impressions\nnot a url,1,1\n' }], audit);
    expect(await current(audit)).toEqual([
      { key: 'https://example.com/a', state: 'indexed', reason: null },
      { key: 'https://example.com/b', state: 'not_indexed', reason: 'Not found (404)' },
      { key: 'https://example.com/c', state: 'not_indexed', reason: 'Crawled - currently not indexed' },
      { key: 'https://example.com/d', state: 'indexed', reason: null },
    ]);
  });

  it("keys URLs as the audit's sitemap entries are keyed (scenario R2)", async () => {
    const keyed = async (importId: string) => {
      const { rows } = await pool().query<{ n: number; declared: number }>(
        `SELECT count(*)::int AS n,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM sitemap_entries e
                                                WHERE e.audit_id = s.audit_id AND e.key = s.key))::int AS declared
           FROM gsc_url_states s WHERE s.import_id = $1`,
        [importId],
      );
      return rows[0];
    };
    const redirect = 'dhmguide-drilldown-page-with-redirect';
    const drilldown = await imported(
      ['Table.csv', 'Metadata.csv'].map((n) => ({ name: n, data: fixture(redirect, n) })),
    );
    expect(await keyed(drilldown.id)).toEqual({ n: 46, declared: 0 });
    const perf = await imported([{ name: 'Pages.csv', data: fixture('dhmguide-performance', 'Pages.csv') }]);
    expect(await keyed(perf.id)).toEqual({ n: 74, declared: 38 });
  });
});

describe('the imports API', () => {
  it('lists imports newest first for a viewer, and an admin deletes one with its rows', async () => {
    const audit = await reconciledAuditOf('GSC list', {
      sitemaps: { 's.xml': urlsetXml(['https://example.com/a']) },
      crawl: [JSON.stringify({ url: 'https://example.com/a', status: 200 })],
    });
    const folder = 'mikenelson-indexing-overview';
    const files = readdirSync(path.join(FIXTURES, folder)).map((n) => ({
      name: n,
      data: fixture(folder, n),
    }));
    const older = await imported(files, audit);
    const newer = await imported(files, audit);
    const list = await listRoute(viewer.request(`${base(audit)}/imports`), ctx({ id: audit }));
    expect(list.status).toBe(200);
    const { imports } = (await list.json()) as { imports: GscImportDto[] };
    expect(imports.map((i) => i.id)).toEqual([newer.id, older.id]);
    expect(imports[0]?.uploads[0]).toEqual({ name: expect.any(String), bytes: expect.any(Number) });
    expect(JSON.stringify(imports)).not.toContain('storedPath');

    const del = (caller: TestCaller, importId: string) =>
      deleteRoute(
        caller.request(`${base(audit)}/imports/${importId}`, { method: 'DELETE' }),
        ctx({ id: audit, importId }),
      );
    expect((await del(reviewer, older.id)).status).toBe(403);
    expect((await del(admin, older.id)).status).toBe(204);
    expect((await del(admin, older.id)).status).toBe(404);
    expect(await countsOf(older.id)).toMatchObject({ issues: 0, chartPoints: 0 });
    expect(await countsOf(newer.id)).toMatchObject({ issues: 9 });
  });
});
