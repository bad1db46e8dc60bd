// Every reconciliation rule and its precedence, on a crafted sitemap and crawl, through the real
// ingest and reconcile jobs on Postgres.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import type { TAuditOptions } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { ZFindingQuery } from '@/lib/findings/schema';
import { listFindings } from '@/lib/review/data';
import { runAuditStep } from '@/lib/test-support/run-audit';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rules-'));
const S = 'https://ex.com';

function sitemap(entries: [string, string?][]): string {
  const file = path.join(dir, `sitemap-${randomUUID()}.xml`);
  const urls = entries
    .map(([loc, lastmod]) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  writeFileSync(file, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  return file;
}

function crawl(rows: Record<string, unknown>[]): string {
  const file = path.join(dir, `crawl-${randomUUID()}.jsonl`);
  writeFileSync(
    file,
    rows
      .map((r) => JSON.stringify({ status: 200, indexable: true, crawled_at: '2026-11-01T00:00:00Z', ...r }))
      .join('\n'),
  );
  return file;
}

interface Finding {
  id: number;
  list: string;
  url: string;
  reason: string;
  reasons: string[];
  evidence: Record<string, unknown>;
}

async function reconcile(
  sitemapFile: string | string[],
  crawlFile: string,
  options: Partial<TAuditOptions> = {},
) {
  const id = randomUUID();
  const files = Array.isArray(sitemapFile) ? sitemapFile : [sitemapFile];
  await insertAudit(id, 'rules', { normalization: 'exact', ...options }, [
    ...files.map((storedPath, i) => ({
      role: 'sitemap' as const,
      kind: 'upload' as const,
      fileName: `sitemap-${i + 1}.xml`,
      storedPath,
    })),
    { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: crawlFile },
  ]);
  await runAuditStep('ingest', id);
  expect((await getAudit(id))?.phase).toBe('reconcile_queued');
  await runAuditStep('reconcile', id);
  const rows: Finding[] = [];
  for (const list of ['prune', 'held', 'add'] as const) {
    rows.push(...(await listFindings(id, ZFindingQuery.parse({ list, limit: 1000 }))).items);
  }
  rows.sort((a, b) => a.id - b.id);
  const audit = await getAudit(id);
  if (!audit) throw new Error('audit vanished');
  return { id, audit, findings: rows, byUrl: new Map(rows.map((r) => [`${r.list} ${r.url}`, r])) };
}

describe('reconciliation rules (exact profile)', () => {
  let result: Awaited<ReturnType<typeof reconcile>>;

  beforeAll(async () => {
    result = await reconcile(
      sitemap([
        [`${S}/`],
        [`${S}/ok`],
        [`${S}/ok`],
        [`${S}/missing`],
        [`${S}/gone`],
        [`${S}/gone`],
        [`${S}/err`],
        [`${S}/moved`],
        [`${S}/canon`],
        [`${S}/hidden`],
        [`${S}/blocked`],
        [`${S}/timeout`],
        [`${S}/redirect-noindex`],
        ['http://www.ex.com/variant/'],
        [`${S}/fresh`, '2026-11-20'],
        [`${S}/blog/post-9`],
        [`${S}/news/b`],
      ]),
      crawl([
        { url: `${S}/` },
        { url: `${S}/ok`, canonical_url: `${S}/ok` },
        { url: `${S}/gone`, status: 404, indexable: false },
        { url: `${S}/err`, status: 503 },
        { url: `${S}/moved`, status: 301, redirect_url: `${S}/target` },
        { url: `${S}/target`, status: 404 },
        { url: `${S}/canon`, canonical_url: `${S}/ok` },
        { url: `${S}/hidden`, indexable: false },
        { url: `${S}/blocked`, status: 0, blocked_by_robots: true },
        { url: `${S}/timeout`, status: 0 },
        { url: `${S}/redirect-noindex`, status: 301, redirect_url: `${S}/ok`, noindex: true },
        { url: `${S}/variant` },
        { url: `${S}/news/a` },
        { url: `${S}/new-page` },
        { url: `${S}/new-404`, status: 404 },
        { url: `${S}/new-noindex`, indexable: false },
        { url: `${S}/new-canon`, canonical_url: `${S}/ok` },
      ]),
    );
  });

  const find = (list: string, url: string) => {
    const f = result.byUrl.get(`${list} ${url}`);
    if (!f) throw new Error(`no ${list} finding for ${url}`);
    return f;
  };

  it('leaves healthy declared pages alone', () => {
    expect(result.byUrl.has(`prune ${S}/ok`)).toBe(false);
    expect(result.byUrl.has(`prune ${S}/`)).toBe(false);
  });

  it('prunes unreached pages, but not those the crawl could not have seen', () => {
    expect(find('prune', `${S}/missing`).reason).toBe('unreached_by_crawl');
    expect(find('prune', `${S}/news/b`).reason).toBe('unreached_by_crawl');
    expect(find('held', `${S}/fresh`)).toMatchObject({ reason: 'newer_than_crawl' });
    expect(find('held', `${S}/fresh`).evidence).toMatchObject({
      lastmod: '2026-11-20T00:00:00.000Z',
      crawlTime: '2026-11-01T00:00:00.000Z',
    });
    expect(find('held', `${S}/blog/post-9`)).toMatchObject({
      reason: 'section_not_crawled',
      evidence: { section: 'ex.com/blog' },
    });
  });

  it('names the status of pages that answer with an error, and counts duplicates', () => {
    expect(find('prune', `${S}/gone`)).toMatchObject({ reason: 'http_404', reasons: ['http_404'] });
    expect(find('prune', `${S}/gone`).evidence).toMatchObject({ status: 404, occurrences: 2 });
    // A server error is held, not pruned: one bad minute of a server is no reason to drop a URL.
    expect(find('held', `${S}/err`)).toMatchObject({ reason: 'server_error', evidence: { status: 503 } });
    expect(find('prune', `${S}/timeout`).reason).toBe('no_response');
    expect(find('prune', `${S}/blocked`)).toMatchObject({
      reason: 'blocked_by_robots',
      reasons: ['blocked_by_robots'],
    });
  });

  it('prunes redirects with their target and its status, and keeps every rule that applies', () => {
    expect(find('prune', `${S}/moved`)).toMatchObject({
      reason: 'redirects',
      evidence: { redirectTarget: `${S}/target`, redirectTargetStatus: 404 },
    });
    expect(find('prune', `${S}/redirect-noindex`).reasons).toEqual(['redirects', 'noindex']);
  });

  it('prunes canonicalised and noindex pages', () => {
    expect(find('prune', `${S}/canon`)).toMatchObject({
      reason: 'non_canonical',
      evidence: { canonical: `${S}/ok`, canonicalDeclared: true },
    });
    expect(find('prune', `${S}/hidden`)).toMatchObject({ reason: 'noindex', reasons: ['noindex'] });
  });

  it('reports a near match as url_variant and adds the crawled URL, so applying both lists fixes the sitemap', () => {
    expect(find('prune', 'http://www.ex.com/variant/')).toMatchObject({
      reason: 'url_variant',
      evidence: { variantUrl: `${S}/variant` },
    });
    expect(find('add', `${S}/variant`).reason).toBe('reachable_not_declared');
  });

  it('adds only indexable, self-canonical 200 pages the sitemap does not declare, and counts what it left out', () => {
    const added = result.findings.filter((f) => f.list === 'add').map((f) => f.url);
    expect(added.sort()).toEqual([`${S}/new-page`, `${S}/news/a`, `${S}/variant`]);
    // Not declared and left out: /target and /new-404 (404), /new-noindex, /new-canon.
    expect(result.audit.findings).toMatchObject({
      addExcluded: { non200: 2, noindex: 1, canonicalised: 1 },
    });
  });

  it('summarises counts per list and reason, and ends the audit with sanity warnings', () => {
    const f = result.audit.findings;
    expect(f?.prune.total).toBe(result.findings.filter((x) => x.list === 'prune').length);
    expect(f?.prune.byReason).toMatchObject({
      http_404: 1,
      redirects: 2,
      unreached_by_crawl: 2,
    });
    expect(f?.prune.byReason).not.toHaveProperty('http_503');
    expect(f?.held).toEqual({
      total: 3,
      byReason: { newer_than_crawl: 1, section_not_crawled: 1, server_error: 1 },
    });
    expect(f?.add.total).toBe(3);
    expect(result.audit.status).toBe('succeeded');
    const codes = result.audit.warnings.map((w) => w.code);
    expect(codes).toEqual(
      expect.arrayContaining(['prune_share_high', 'crawl_older_than_lastmod', 'hosts_not_crawled']),
    );
    expect(codes).not.toContain('no_overlap');
  });

  it('numbers findings stably in sitemap order, add findings after every declared one', () => {
    const declared = result.findings.filter((f) => f.list !== 'add');
    const order = declared.map((f) => f.url);
    // The crafted sitemap lists these in this order.
    expect(order.indexOf(`${S}/missing`)).toBeLessThan(order.indexOf(`${S}/gone`));
    expect(order.indexOf(`${S}/gone`)).toBeLessThan(order.indexOf(`${S}/news/b`));
    const maxDeclared = Math.max(...declared.map((f) => f.id));
    expect(result.findings.filter((f) => f.list === 'add').every((f) => f.id > maxDeclared)).toBe(true);
    expect(new Set(result.findings.map((f) => f.id)).size).toBe(result.findings.length);
  });
});

describe('reconciliation edge cases', () => {
  it('does not report url_variant under the lenient profile, where the key already absorbs the variant', async () => {
    const r = await reconcile(
      sitemap([['http://ex.com/a/'], [`${S}/b`]]),
      crawl([{ url: `${S}/a` }, { url: `${S}/b?x=1` }]),
      {
        normalization: 'lenient',
      },
    );
    expect(r.findings).toEqual([]);
  });

  it('warns when the two sets do not overlap at all', async () => {
    const r = await reconcile(
      sitemap([[`${S}/one`], [`${S}/two`]]),
      crawl([{ url: 'https://other.example/x' }]),
    );
    expect(r.audit.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['no_overlap', 'hosts_not_crawled']),
    );
  });

  it('uses the crawl time given in the options when the export has none', async () => {
    const file = path.join(dir, 'no-time.jsonl');
    writeFileSync(file, `${JSON.stringify({ url: `${S}/`, status: 200 })}\n`);
    const r = await reconcile(sitemap([[`${S}/`], [`${S}/late`, '2026-06-01']]), file, {
      crawlTime: '2026-05-01T00:00:00Z',
    });
    expect(r.byUrl.get(`held ${S}/late`)?.reason).toBe('newer_than_crawl');
  });

  it('prefers a 2xx crawl row when several rows share a key', async () => {
    const r = await reconcile(
      sitemap([[`${S}/dup`]]),
      crawl([
        { url: `${S}/dup`, status: 200 },
        { url: `${S}/dup`, status: 404 },
      ]),
    );
    expect(r.findings).toEqual([]);
  });
});

async function rowsOf(auditId: string) {
  const { rows } = await pool().query(
    `SELECT list, url, reason, reasons, signals, file_ids AS "fileIds", inlinks, canonical_status AS "canonicalStatus"
       FROM findings WHERE audit_id = $1 ORDER BY id`,
    [auditId],
  );
  return rows as {
    list: string;
    url: string;
    reason: string;
    reasons: string[];
    signals: string[];
    fileIds: number[];
    inlinks: number | null;
    canonicalStatus: number | null;
  }[];
}

describe('server errors', () => {
  const declared = () => sitemap([[`${S}/`], [`${S}/busy`], [`${S}/down`], [`${S}/gone`]]);
  const crawled = () =>
    crawl([
      { url: `${S}/` },
      { url: `${S}/busy`, status: 429 },
      { url: `${S}/down`, status: 500 },
      { url: `${S}/gone`, status: 404 },
    ]);

  it('holds 5xx and 429 as server_error by default', async () => {
    const r = await reconcile(declared(), crawled());
    expect(r.findings.map((f) => [f.list, f.url, f.reason])).toEqual([
      ['held', `${S}/busy`, 'server_error'],
      ['held', `${S}/down`, 'server_error'],
      ['prune', `${S}/gone`, 'http_404'],
    ]);
  });

  it('prunes them as http_<status> with serverErrors: "prune", as the playbook does', async () => {
    const r = await reconcile(declared(), crawled(), { serverErrors: 'prune' });
    expect(r.findings.map((f) => [f.list, f.url, f.reason])).toEqual([
      ['prune', `${S}/busy`, 'http_429'],
      ['prune', `${S}/down`, 'http_500'],
      ['prune', `${S}/gone`, 'http_404'],
    ]);
  });
});

describe('content types', () => {
  it('adds only HTML pages, counts resources as non_html, and leaves a declared PDF that answers 200 alone', async () => {
    const r = await reconcile(
      sitemap([[`${S}/`], [`${S}/guide.pdf`], [`${S}/logo.png`]]),
      crawl([
        { url: `${S}/` },
        { url: `${S}/guide.pdf`, content_type: 'application/pdf', indexable: false },
        { url: `${S}/logo.png`, content_type: 'image/png' },
        { url: `${S}/page`, content_type: 'text/html; charset=UTF-8' },
        { url: `${S}/xhtml`, content_type: 'application/xhtml+xml' },
        { url: `${S}/no-type` },
        // No content type at all (Screaming Frog leaves some images without one): the path tells.
        { url: `${S}/banner.webp?v=2` },
        { url: `${S}/app.js`, content_type: 'application/javascript' },
        { url: `${S}/style.css`, content_type: 'text/css' },
        { url: `${S}/photo.jpg`, content_type: 'image/jpeg', status: 404 },
      ]),
    );
    expect(r.findings.map((f) => [f.list, f.url])).toEqual([
      ['add', `${S}/page`],
      ['add', `${S}/xhtml`],
      ['add', `${S}/no-type`],
    ]);
    // The 404 image is counted as non-200: a response that failed says nothing by its content type.
    expect(r.audit.findings?.addExcluded).toMatchObject({ nonHtml: 3, non200: 1 });
  });
});

describe('"Not added" uses the prune side precedence', () => {
  // What Screaming Frog's Indexability Status produces, as our JSONL fields.
  const cases: [string, Record<string, unknown>, string][] = [
    ['Canonicalised', { canonical_url: `${S}/`, indexable: false }, 'canonicalised'],
    [
      'Canonicalised, with no canonical URL in the export',
      { canonicalised: true, indexable: false },
      'canonicalised',
    ],
    ['Canonicalised, noindex', { canonical_url: `${S}/`, indexable: false, noindex: true }, 'canonicalised'],
    ['noindex', { indexable: false, noindex: true }, 'noindex'],
    ['Non-Indexable alone', { indexable: false }, 'noindex'],
    ['Redirected', { status: 301, redirect_url: `${S}/`, indexable: false }, 'non200'],
    ['Client Error', { status: 404, indexable: false }, 'non200'],
    ['Server Error', { status: 503, indexable: false }, 'non200'],
    ['Blocked by robots.txt', { status: 0, blocked_by_robots: true, indexable: false }, 'blocked'],
    ['Blocked by robots.txt, noindex', { status: 0, blocked_by_robots: true, noindex: true }, 'blocked'],
    ['Redirected, noindex', { status: 301, redirect_url: `${S}/`, noindex: true }, 'non200'],
  ];
  it.each(cases)('%s → %s', async (_label, fields, bucket) => {
    const r = await reconcile(sitemap([[`${S}/`]]), crawl([{ url: `${S}/` }, { url: `${S}/x`, ...fields }]));
    expect(r.findings).toEqual([]);
    const excluded = r.audit.findings?.addExcluded as unknown as Record<string, number>;
    expect(Object.entries(excluded).filter(([, n]) => n > 0)).toEqual([[bucket, 1]]);
  });

  it('declared pages keep the same order of reasons', async () => {
    const r = await reconcile(
      sitemap([[`${S}/a`], [`${S}/b`], [`${S}/c`], [`${S}/d`]]),
      crawl([
        { url: `${S}/d`, canonicalised: true, indexable: false },
        // Two pages naming another page (not the home page: that would be a canonical_pattern).
        { url: `${S}/a`, canonical_url: `${S}/main`, indexable: false, noindex: true },
        { url: `${S}/b`, canonical_url: `${S}/main`, indexable: false },
        { url: `${S}/c`, status: 0, blocked_by_robots: true, noindex: true },
        { url: `${S}/main` },
      ]),
    );
    expect(r.findings.filter((f) => f.list !== 'add').map((f) => [f.url, f.reasons])).toEqual([
      [`${S}/a`, ['non_canonical', 'noindex']],
      [`${S}/b`, ['non_canonical']],
      [`${S}/c`, ['blocked_by_robots', 'noindex']],
      // Canonicalised by the export's word alone: not "noindex" for want of the canonical's URL.
      [`${S}/d`, ['non_canonical']],
    ]);
  });
});

describe('signals', () => {
  it('finds redirects that fight canonicals, canonical chains and URLs in several sitemap files', async () => {
    const W = 'https://www.ex.com';
    const r = await reconcile(
      [
        sitemap([[`${W}/a`], [`${S}/chain`], [`${S}/twice`], [`${S}/ok`]]),
        sitemap([[`${S}/twice`], [`${S}/ok`]]),
      ],
      crawl([
        // www → apex redirect, apex canonical → www: the two contradict each other.
        { url: `${W}/a`, status: 301, redirect_url: `${S}/a` },
        { url: `${S}/a`, canonical_url: `${W}/a`, indexable: false },
        // Its canonical redirects.
        { url: `${S}/chain`, canonical_url: `${S}/old` },
        { url: `${S}/old`, status: 301, redirect_url: `${S}/new` },
        { url: `${S}/new` },
        { url: `${S}/twice`, status: 404, inlinks: 7 },
        { url: `${S}/ok` },
      ]),
    );
    const rows = await rowsOf(r.id);
    const byUrl = new Map(rows.filter((f) => f.list !== 'add').map((f) => [f.url, f]));
    // Both are loops or chains: held as canonical_conflict (not pruned), the signal still names which.
    expect(byUrl.get(`${W}/a`)).toMatchObject({
      list: 'held',
      reason: 'canonical_conflict',
      reasons: ['canonical_conflict', 'redirects'],
      signals: ['redirect_canonical_conflict'],
    });
    expect(byUrl.get(`${S}/chain`)).toMatchObject({
      list: 'held',
      reason: 'canonical_conflict',
      reasons: ['canonical_conflict', 'non_canonical'],
      signals: ['canonical_chain'],
      canonicalStatus: 301,
    });
    const twice = byUrl.get(`${S}/twice`);
    expect(twice).toMatchObject({ reason: 'http_404', signals: ['multi_file'], inlinks: 7 });
    expect(twice?.fileIds).toHaveLength(2);
    const warnings = new Map(r.audit.warnings.map((w) => [w.code, w]));
    expect(warnings.get('redirect_canonical_conflict')).toMatchObject({ count: 1, examples: [`${W}/a`] });
    expect(warnings.get('canonical_chain')).toMatchObject({ count: 1, examples: [`${S}/chain`] });
    // Every URL in two files counts, healthy or not, and the files are named.
    const multi = warnings.get('multi_file');
    expect(multi?.count).toBe(2);
    expect(multi?.examples?.[0]).toMatch(
      /^https:\/\/ex\.com\/twice \(in .*sitemap-1\.xml, .*sitemap-2\.xml\)$/,
    );
  });
});
