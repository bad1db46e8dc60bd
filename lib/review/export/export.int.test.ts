import { beforeAll, describe, expect, it } from 'vitest';
import { GET as exportRoute } from '@/app/api/v1/audits/[id]/export/route';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { pool } from '@/lib/db/client';
import type { FindingPage } from '@/lib/findings/schema';
import { replacementOf, replaceWithSql, targetOf, targetSql } from '@/lib/findings/target';
import type { FindingRow } from '@/lib/findings/types';
import { neutraliseCell } from '@/lib/review/export/csv';
import { neutralisedSql } from '@/lib/review/export/data';
import { decide } from '@/lib/review/mutations';
import { testCaller } from '@/lib/test-support/auth';
import { findingRow } from '@/lib/test-support/finding-row';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
const at = '2026-11-01T00:00:00Z';
const u = (p: string) => `https://r.example${p}`;
let auditId = '';
const files = { a: 0, b: 0 };

/** Two sitemap files (the second uploaded as `@b.xml`, a name a spreadsheet would run) and a crawl. */
async function reconciledAudit(): Promise<string> {
  const urlset = (paths: string[]) => urlsetXml(paths.map(u));
  const crawl = [
    { url: u('/old'), status: 301, redirect_url: u('/new') },
    { url: u('/new'), status: 200 },
    { url: u('/dup'), status: 200, canonical_url: u('/main') },
    { url: u('/main'), status: 200 },
    { url: u('/folder/'), status: 200 },
    { url: u('/flaky'), status: 503 },
    { url: u('/gone'), status: 404 },
  ];
  return reconciledAuditOf('Two files', {
    sitemaps: {
      'a.xml': urlset(['/old', '/dup', '/folder', '/flaky', '/both-gone']),
      '@b.xml': urlset(['/old', '/main', '/both-gone', '/gone']),
    },
    crawl: crawl.map((r) => JSON.stringify({ ...r, crawled_at: at })),
  });
}

const ctx = () => ({ params: Promise.resolve({ id: auditId }) });

async function download(query: string): Promise<{ res: Response; bytes: Buffer; text: string }> {
  const res = await exportRoute(viewer.request(`${base}/${auditId}/export?${query}`), ctx());
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, text: bytes.toString('utf8') };
}

async function urls(query: string): Promise<string[]> {
  const res = await listRoute(viewer.request(`${base}/${auditId}/findings?${query}`), ctx());
  const body: FindingPage = await res.json();
  return body.items.map((f) => f.url.replace('https://r.example', '')).sort();
}

beforeAll(async () => {
  auditId = await reconciledAudit();
  const { rows } = await pool().query<{ id: number; upload_name: string }>(
    'SELECT id, upload_name FROM sitemap_files WHERE audit_id = $1',
    [auditId],
  );
  files.a = rows.find((r) => r.upload_name === 'a.xml')?.id ?? 0;
  files.b = rows.find((r) => r.upload_name === '@b.xml')?.id ?? 0;
  expect(files.a).toBeGreaterThan(0);
  expect(files.b).toBeGreaterThan(files.a);
  await decide(auditId, { filter: { list: 'prune' } }, { decision: 'approved', by: 'Ana', note: null });
});

describe('the CSV export', () => {
  it('names every declaring file and what to replace each URL with', async () => {
    const { res, text } = await download('list=prune&decision=approved');
    expect(res.status).toBe(200);
    const [header, ...lines] = text.trimEnd().split('\n');
    expect(header).toBe(
      'url,reason,reasons,sitemap_files,status,lastmod,replace_with,target_status,decision,decided_by,decided_at,note',
    );
    const rows = lines.map((l) => l.replace(/,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,$/, ',<at>,')).sort();
    expect(rows).toEqual(
      [
        // Declared in both files: both named, in file order (the second neutralised: a reader splitting
        // on the `|` would otherwise see a formula).
        `${u('/both-gone')},unreached_by_crawl,unreached_by_crawl,a.xml|'@b.xml,,,,,approved,Ana,<at>,`,
        `${u('/old')},redirects,redirects,a.xml|'@b.xml,301,,${u('/new')},200,approved,Ana,<at>,`,
        `${u('/dup')},non_canonical,non_canonical,a.xml,200,,${u('/main')},200,approved,Ana,<at>,`,
        // The crawled form's status is kept, so the variant is offered as a 200.
        `${u('/folder')},url_variant,url_variant,a.xml,,,${u('/folder/')},200,approved,Ana,<at>,`,
        // One file, whose name starts like a formula: neutralised.
        `${u('/gone')},http_404,http_404,'@b.xml,404,,,,approved,Ana,<at>,`,
      ].sort(),
    );
  });

  it('starts with a UTF-8 byte order mark only when asked', async () => {
    const plain = await download('list=prune&decision=all');
    const withBom = await download('list=prune&decision=all&bom=1');
    expect([...withBom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(withBom.bytes.subarray(3).equals(plain.bytes)).toBe(true);
    expect(plain.bytes.subarray(0, 4).toString()).toBe('url,');
    // Not for JSONL, which spreadsheets do not open.
    expect((await download('list=prune&decision=all&format=jsonl&bom=1')).text.startsWith('{')).toBe(true);
  });

  it('takes the file and signal filters', async () => {
    const rowsOf = async (query: string) =>
      (await download(query)).text
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]?.replace('https://r.example', ''))
        .sort();
    expect(await rowsOf(`list=prune&decision=all&file=${files.b}`)).toEqual(['/both-gone', '/gone', '/old']);
    expect(await rowsOf('list=prune&decision=all&signal=multi_file')).toEqual(['/both-gone', '/old']);
    expect(await rowsOf(`list=held&decision=all&file=${files.a}`)).toEqual(['/flaky']);
  });
});

describe('formula neutralisation', () => {
  const cells = [
    'https://r.example/a-b?x=-1',
    '=1+1',
    '  @x',
    'ok;=1+1',
    'ok; +1',
    'ok\t=1',
    '\t=1',
    'ok\t\t-1',
    'a.xml|@b.xml',
    'x,=1',
    'say "hi";=2',
    'line\r\n=HYPERLINK("http://evil")',
    'ok;x=1',
  ];

  it('is the same rule in SQL as in TypeScript', async () => {
    for (const cell of cells) {
      const { rows } = await pool().query<{ out: string }>(`SELECT ${neutralisedSql('$1::text')} AS out`, [
        cell,
      ]);
      expect(rows[0]?.out, JSON.stringify(cell)).toBe(neutraliseCell(cell));
    }
    // Not vacuous: most of the cells are changed.
    expect(cells.filter((c) => neutraliseCell(c) !== c).length).toBeGreaterThan(9);
  });

  it('reaches the exported CSV: no ;- or tab-split segment starts with a formula character', async () => {
    const { rows } = await pool().query<{ id: number }>(
      `SELECT id FROM findings WHERE audit_id = $1 AND list = 'held'`,
      [auditId],
    );
    await decide(
      auditId,
      { ids: rows.map((r) => r.id) },
      { decision: 'rejected', by: 'Eve\t+cmd', note: 'ok;=1+1\r\n -2' },
    );
    const { text } = await download('list=held&decision=rejected');
    const line = text.slice(text.indexOf('\n') + 1);
    expect(line).toContain(`,Eve\t'+cmd,`);
    expect(line).toContain(`,"ok;'=1+1\r\n' -2"\n`);
    for (const separator of [',', ';', '\t', /\r?\n/]) {
      for (const cell of line.split(separator)) expect(cell.replace(/^[" ]+/, '')).not.toMatch(/^[=+\-@]/);
    }
  });
});

describe('the JSONL export and the API', () => {
  it('carry the same columns, lists as arrays and numbers as numbers', async () => {
    const { text } = await download('list=prune&decision=all&format=jsonl');
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.find((r) => r.url === u('/old'))).toEqual({
      url: u('/old'),
      reason: 'redirects',
      reasons: ['redirects'],
      sitemap_files: ['a.xml', '@b.xml'],
      status: 301,
      lastmod: null,
      replace_with: u('/new'),
      target_status: 200,
      decision: 'approved',
      decided_by: 'Ana',
      decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      note: null,
    });
  });

  it('gives a finding its target, every declaring file and its signals', async () => {
    const res = await listRoute(viewer.request(`${base}/${auditId}/findings?list=prune&q=/old`), ctx());
    const [old] = ((await res.json()) as FindingPage).items;
    expect(old).toMatchObject({
      target: { kind: 'redirect', url: u('/new'), status: 200 },
      signals: ['multi_file'],
      sitemapFile: { id: files.b, uploadName: '@b.xml' },
      sitemapFiles: [
        { id: files.a, url: null, uploadName: 'a.xml' },
        { id: files.b, url: null, uploadName: '@b.xml' },
      ],
    });
  });

  it('filters findings by the files that declare them and by signal', async () => {
    expect(await urls(`list=prune&file=${files.a}`)).toEqual(['/both-gone', '/dup', '/folder', '/old']);
    expect(await urls(`list=prune&file=${files.b}&sort=-status`)).toEqual(['/both-gone', '/gone', '/old']);
    expect(await urls('list=prune&signal=multi_file&q=old')).toEqual(['/old']);
    expect(await urls('list=held')).toEqual(['/flaky']);
    expect(await urls('list=prune&file=999999')).toEqual([]);
  });
});

describe('the target rule', () => {
  /** The target Postgres computes for `row` (typed as the findings table types it). */
  async function targetInPostgres(row: FindingRow) {
    const { rows } = await pool().query(
      `SELECT t.kind, t.url, t.status FROM jsonb_populate_record(NULL::findings, $1::jsonb) f
         LEFT JOIN LATERAL ${targetSql()} t ON true`,
      [JSON.stringify(row)],
    );
    const t = rows[0];
    return t?.kind ? { kind: t.kind, url: t.url, status: t.status } : null;
  }

  const facts = {
    redirect_url: u('/r'),
    target_status: 404,
    canonical: u('/c'),
    canonical_status: 301,
    variant_url: u('/v/'),
  };
  const cases: Partial<FindingRow>[] = [
    { reasons: ['redirects'], ...facts },
    { reasons: ['non_canonical'], ...facts },
    { reasons: ['url_variant'], ...facts },
    { reasons: ['http_404', 'non_canonical', 'redirects'], ...facts },
    { reasons: ['redirects', 'non_canonical'], ...facts, redirect_url: null },
    { reasons: ['redirects', 'non_canonical'], ...facts, redirect_url: '' },
    { reasons: ['non_canonical'], ...facts, canonical_status: null },
    { reasons: ['noindex', 'server_error'], ...facts },
    { reasons: ['non_canonical'], canonical: null },
  ];

  it.each(cases.map((c, i) => [i, c] as const))('agrees in TypeScript and SQL (case %i)', async (_i, c) => {
    const row = findingRow({ reason: c.reasons?.[0] ?? 'x', ...c });
    expect(await targetInPostgres(row)).toEqual(targetOf(row));
  });

  /** replace_with as the CSV export computes it. */
  async function replacementInPostgres(row: FindingRow) {
    const { rows } = await pool().query(
      `SELECT ${replaceWithSql()} AS url FROM jsonb_populate_record(NULL::findings, $1::jsonb) f
         LEFT JOIN LATERAL ${targetSql()} t ON true`,
      [JSON.stringify(row)],
    );
    return rows[0]?.url ?? null;
  }

  const offered: Partial<FindingRow>[] = [
    ...cases,
    { reasons: ['redirects'], ...facts, target_status: 200 },
    { reasons: ['non_canonical'], ...facts, canonical_status: 200 },
    { reasons: ['url_variant'], ...facts, variant_status: 200 },
    { reasons: ['url_variant'], ...facts, variant_status: 301 },
    { reasons: ['canonical_conflict', 'redirects'], ...facts, target_status: 200 },
    { reasons: ['canonical_pattern', 'non_canonical'], ...facts, canonical_status: 200 },
  ];

  it.each(offered.map((c, i) => [i, c] as const))(
    'offers replace_with alike in TypeScript and SQL, only for a 200 (case %i)',
    async (_i, c) => {
      const row = findingRow({ reason: c.reasons?.[0] ?? 'x', ...c });
      const reasons = row.reasons ?? [row.reason];
      const expected = replacementOf({ reasons, target: targetOf(row) });
      expect(await replacementInPostgres(row)).toEqual(expected);
      if (expected !== null) expect(targetOf(row)?.status).toBe(200);
    },
  );

  it('offers a replacement in some cases and refuses it in others (not vacuous)', () => {
    const results = offered.map((c) => {
      const row = findingRow({ reason: c.reasons?.[0] ?? 'x', ...c });
      return replacementOf({ reasons: row.reasons ?? [], target: targetOf(row) });
    });
    expect(results.filter((r) => r !== null)).toEqual([u('/r'), u('/c'), u('/v/')]);
  });

  it('is exercised for every kind and for none (the comparison is not vacuous)', () => {
    const kinds = cases.map(
      (c) => targetOf(findingRow({ reason: c.reasons?.[0] ?? 'x', ...c }))?.kind ?? null,
    );
    expect(new Set(kinds)).toEqual(new Set(['redirect', 'canonical', 'variant', null]));
  });
});
