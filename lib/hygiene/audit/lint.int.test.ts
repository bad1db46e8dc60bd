// The sitemap lint of an audit end to end: a crafted, reconciled audit graded by the run its review-index
// step starts (through the real step runner), read back through GET …/lint; re-graded through POST with
// the results replaced; a failing lint that keeps the previous result; a real fixture with a relative loc.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET, POST } from '@/app/api/v1/audits/[id]/lint/route';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { LINT_PHASES, LINT_STEPS } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { fixturePath } from '@/lib/test-support/fixtures';
import { reconciledAuditOf, runAuditStep } from '@/lib/test-support/run-audit';
import { lintRun } from './run';
import type { LintReport } from './schema';

const SITE = 'https://shop.example';
const at = (path: string) => `${SITE}${path}`;
const crawled = (path: string, status = 200) =>
  JSON.stringify({ url: at(path), status, crawled_at: '2026-11-01T00:00:00Z' });

/** 100 products with one build-time lastmod, a repeat, a relative and an http loc (not crawled: pruned, so
 * 1 of 103 entries, under the 1 % flag), priority and changefreq. */
const products = Array.from({ length: 100 }, (_, i) => `/product-${i + 1}`);
const aXml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${products.map((p) => `<url><loc>${at(p)}</loc><lastmod>2024-01-01</lastmod><priority>0.5</priority></url>`).join('\n')}
<url><loc>${at('/product-1')}</loc><lastmod>2024-01-01</lastmod><changefreq>daily</changefreq></url>
<url><loc>/relative-page</loc></url>
<url><loc>http://shop.example/insecure</loc></url>
</urlset>`;
/** Four entries, two of them gone (404 in the crawl): 50 % dirt. One repeats a.xml's /product-2. */
const bXml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${at('/product-2')}</loc></url>
<url><loc>${at('/gone-1')}</loc></url>
<url><loc>${at('/gone-2')}</loc></url>
<url><loc>${at('/kept')}</loc></url>
</urlset>`;

let auditId = '';
let reviewer: TestCaller;
let viewer: TestCaller;

const ctx = (id: string) => ({ params: Promise.resolve({ id }) }) as never;
const url = (id: string, query = '') => `http://localhost/api/v1/audits/${id}/lint${query}`;

async function report(id = auditId, query = ''): Promise<LintReport> {
  const res = await GET(viewer.request(url(id, query)), ctx(id));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function recheck(id: string, body?: unknown, caller = reviewer): Promise<Response> {
  return POST(
    caller.request(url(id), {
      method: 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    ctx(id),
  );
}

async function recheckAndRun(id: string, body?: unknown): Promise<string> {
  const res = await recheck(id, body);
  expect(res.status, await res.clone().text()).toBe(202);
  const { runId } = (await res.json()) as { runId: string };
  await runStep(lintRun, 'lint', { runId, attempt: 1 });
  return runId;
}

const counts = (r: LintReport) => Object.fromEntries(r.rules.map((rule) => [rule.code, rule.count]));

beforeAll(async () => {
  auditId = await reconciledAuditOf('Lint', {
    sitemaps: { 'a.xml': aXml, 'b.xml': bXml },
    crawl: [
      ...products.map((p) => crawled(p)),
      crawled('/relative-page'),
      crawled('/gone-1', 404),
      crawled('/gone-2', 404),
      crawled('/kept'),
    ],
  });
  reviewer = await testCaller('reviewer');
  viewer = await testCaller('viewer');
}, 60_000);

afterAll(async () => {
  await stopBoss();
});

describe('the lint run kind', () => {
  it('has CHECKs listing exactly its steps and phases', async () => {
    const values = async (column: string) => {
      const { rows } = await pool().query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1`,
        [`audit_lints_${column}_check`],
      );
      return [...(rows[0]?.def ?? '').matchAll(/'([^']+)'::text/g)].map((m) => m[1]).sort();
    };
    expect(await values('step')).toEqual([...LINT_STEPS].sort());
    expect(await values('phase')).toEqual([...LINT_PHASES].sort());
  });

  it('its tables may be read and written by the web server and the worker (lib/db/roles.ts grants every table)', async () => {
    for (const url of [testDatabaseUrls().web, testDatabaseUrls().worker]) {
      const role = new URL(url).username;
      for (const table of ['audit_lints', 'audit_lint_rules', 'audit_lint_files']) {
        const { rows } = await pool().query<{ ok: boolean }>(
          `SELECT has_table_privilege($1, $2, 'SELECT, INSERT, UPDATE, DELETE') AS ok`,
          [role, table],
        );
        expect({ role, table, ok: rows[0]?.ok }).toEqual({ role, table, ok: true });
      }
    }
  });

  it('before any lint: status none, nothing stored', async () => {
    const r = await report();
    expect(r).toMatchObject({ status: 'none', lint: null, rules: [], files: [], filesTotal: 0 });
  });

  it('an audit that is reconciled is graded by the lint its review-index step starts', async () => {
    await runAuditStep('review_indexes', auditId);
    const queued = await report();
    expect(queued.status).toBe('queued');
    expect(queued.rules).toEqual([]);
    const runId = queued.lint?.id as string;
    await runStep(lintRun, 'lint', { runId, attempt: 1 });

    const r = await report();
    expect(r.status).toBe('succeeded');
    expect(counts(r)).toEqual({
      loc_relative: 1,
      http_on_https: 1,
      duplicate_in_file: 1,
      duplicate_across_files: 1,
      lastmod_uniform: 1,
      priority_present: 100,
      changefreq_present: 1,
    });
    const relative = r.rules.find((rule) => rule.code === 'loc_relative');
    expect(relative).toMatchObject({
      severity: 'error',
      examples: [{ url: '/relative-page', file: 'a.xml' }],
    });
    expect(relative?.fix).toMatch(/absolute URL/);
    // Entry lines are not stored: no example claims one.
    expect(r.rules.flatMap((rule) => rule.examples).some((e) => 'line' in e)).toBe(false);
    expect(r.summary).toMatchObject({
      files: 2,
      urls: 107,
      siteUrl: `${SITE}/`,
      siteUrlInferred: true,
      reconciled: true,
      notJudged: expect.arrayContaining(['robots_disallowed']),
    });
  });

  it('ranks files by dirt from the real prune list, flagging those above 1 %', async () => {
    const { rows } = await pool().query<{ url: string }>(
      `SELECT url FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY url`,
      [auditId],
    );
    // Not vacuous: the reconciliation put the two 404s and the uncrawled http URL on the prune list.
    expect(rows.map((r) => r.url)).toEqual(['http://shop.example/insecure', at('/gone-1'), at('/gone-2')]);
    const r = await report();
    expect(r.filesTotal).toBe(2);
    expect(r.filesFlagged).toBe(1);
    expect(r.files.map(({ fileId: _id, ...f }) => f)).toEqual([
      { url: 'b.xml', entries: 4, pruned: 2, dirt: 0.5, flagged: true },
      { url: 'a.xml', entries: 103, pruned: 1, dirt: 1 / 103, flagged: false },
    ]);
    const paged = await report(auditId, '?limit=1&offset=1');
    expect(paged.files.map((f) => f.url)).toEqual(['a.xml']);
    expect(paged.filesTotal).toBe(2);
  });

  it('re-computes on POST, replacing the previous result (a given site URL judges hosts against it)', async () => {
    const before = await report();
    const runId = await recheckAndRun(auditId, { siteUrl: 'https://other.example/' });
    const r = await report();
    expect(r.lint?.id).toBe(runId);
    expect(r.lint?.id).not.toBe(before.lint?.id);
    // Every entry but the relative one is now on another host; http_on_https compares with the sitemap's
    // own host only.
    expect(counts(r)).toMatchObject({ wrong_host: 106, loc_relative: 1 });
    expect(counts(r).http_on_https).toBeUndefined();
    const { rows } = await pool().query<{ lint: string; n: number }>(
      `SELECT lint_id AS lint, count(*)::int AS n FROM audit_lint_rules WHERE audit_id = $1 GROUP BY lint_id
       UNION ALL SELECT lint_id, count(*)::int FROM audit_lint_files WHERE audit_id = $1 GROUP BY lint_id`,
      [auditId],
    );
    expect(new Set(rows.map((row) => row.lint))).toEqual(new Set([runId]));
  });

  it('a lint that fails keeps the previous result and says it failed', async () => {
    const before = await report();
    // A stored file whose warnings are not a list: the engine throws on it.
    const { rows } = await pool().query<{ id: number }>(
      `UPDATE sitemap_files SET warnings = 'null'::jsonb WHERE audit_id = $1 AND upload_name = 'b.xml' RETURNING id`,
      [auditId],
    );
    try {
      await recheckAndRun(auditId);
    } finally {
      await pool().query(`UPDATE sitemap_files SET warnings = '[]'::jsonb WHERE id = $1`, [rows[0]?.id]);
    }
    const r = await report();
    expect(r.status).toBe('failed');
    expect(r.lint?.error).toMatch(/could not be graded/);
    expect(r.rules).toEqual(before.rules);
    expect(r.files).toEqual(before.files);
    expect(r.checkedAt).toBe(before.checkedAt);
  });

  it('refuses viewers, a second lint while one waits, and unknown audits', async () => {
    expect((await recheck(auditId, undefined, viewer)).status).toBe(403);
    const first = await recheck(auditId);
    expect(first.status).toBe(202);
    expect((await recheck(auditId)).status).toBe(409);
    const { runId } = (await first.json()) as { runId: string };
    await runStep(lintRun, 'lint', { runId, attempt: 1 });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await recheck(missing)).status).toBe(404);
    expect((await GET(viewer.request(url(missing)), ctx(missing))).status).toBe(404);
    expect((await recheck(auditId, { siteUrl: 'ftp://x.example/' })).status).toBe(400);
  });

  it('judges a real fixture with a relative loc (squirrelscan), resolved against the given site', async () => {
    const id = await reconciledAuditOf('Lint fixture', {
      sitemaps: {
        'bad-sitemap.xml': readFileSync(
          fixturePath('malformed/squirrelscan-bad-sitemap-audit-rules.xml'),
          'utf8',
        ),
      },
      crawl: [JSON.stringify({ url: 'https://example.com/', status: 200 })],
    });
    await recheckAndRun(id, { siteUrl: 'https://example.com/' });
    const r = await report(id);
    expect(r.status).toBe('succeeded');
    expect(counts(r)).toMatchObject({
      loc_missing: 1,
      loc_relative: 1,
      wrong_host: 1,
      lastmod_future: 1,
      lastmod_invalid: 1,
    });
  });
});
