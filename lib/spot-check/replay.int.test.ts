// Real Screaming Frog exports from ../shared/fixtures replayed as live sites: each crawled URL answers
// today exactly what the export says it answered (status, Location, content type, title, meta robots,
// X-Robots-Tag, canonical), from the export's raw columns rather than the product's reading of them.
// When the live site has not changed since the crawl, a spot-check must agree with every reason the
// reconciliation gave: nothing contradicted, nothing changed, nothing unchecked. A disagreement means the
// crawl reader and the live reader understand the same page differently, and a reviewer would be told the
// crawl is stale when it is not.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { spotCheckRun } from './run';
import { startSpotCheck } from './service';

type Row = Record<string, string>;

const servers: TestServer[] = [];

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.map((s) => s.close()));
  await stopBoss();
});

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page a crawled row describes, as its server sent it at crawl time (as far as the export tells). */
function answer(row: Row | undefined, res: http.ServerResponse): void {
  if (!row) {
    res
      .writeHead(404, { 'content-type': 'text/html' })
      .end('<title>Page not found</title><p>Nothing here.</p>');
    return;
  }
  const status = Number(row['Status Code']);
  const headers: Record<string, string> = {};
  if (row['Content Type']) headers['content-type'] = row['Content Type'];
  if (row['X-Robots-Tag 1']) headers['x-robots-tag'] = row['X-Robots-Tag 1'];
  if (status >= 300 && status < 400 && row['Redirect URL']) headers.location = row['Redirect URL'];
  // The export keeps no Retry-After; an immediate one keeps the bounded retries of a 429/503 quick.
  if (status === 429 || status === 503) headers['retry-after'] = '0';
  const html = /html/i.test(row['Content Type'] ?? '');
  const body = html
    ? `<!doctype html><html><head><title>${escapeHtml(row['Title 1'] ?? '')}</title>` +
      (row['Meta Robots 1'] ? `<meta name="robots" content="${escapeHtml(row['Meta Robots 1'])}">` : '') +
      (row['Canonical Link Element 1']
        ? `<link rel="canonical" href="${escapeHtml(row['Canonical Link Element 1'])}">`
        : '') +
      `</head><body><h1>${escapeHtml(row['H1-1'] ?? '')}</h1><p>${escapeHtml(row.Address ?? '')}: the page's own words.</p></body></html>`
    : 'binary';
  res.writeHead(status, headers).end(status >= 300 && status < 400 ? '' : body);
}

/**
 * Serves the export's origins from 127.0.0.1 (one server per origin) and rewrites every absolute URL of
 * the export and of the declared set to the local origin. Returns the rewritten texts.
 */
async function replay(csvFile: string, declared: string[]): Promise<{ csv: string; declared: string[] }> {
  let csv = readFileSync(fixturePath(csvFile), 'utf8').replace(/^\uFEFF/, '');
  const rows = parse(csv, { columns: true, relax_column_count: true }) as Row[];
  const origins = new Set<string>();
  for (const row of rows) {
    for (const column of ['Address', 'Redirect URL', 'Canonical Link Element 1']) {
      const value = row[column];
      if (value && /^https?:\/\//.test(value)) origins.add(new URL(value).origin);
    }
  }
  for (const url of declared) origins.add(new URL(url).origin);
  const byUrl = new Map<string, Row>();
  const disallowed = new Map<string, string[]>();
  const local = new Map<string, string>();
  // Longest first, so no origin is rewritten inside a longer one.
  for (const origin of [...origins].sort((a, b) => b.length - a.length)) {
    const server = await startTestServer((req, res) => {
      if (req.url === '/robots.txt') {
        // The export's "Blocked by robots.txt" rows are what this host's robots.txt disallowed.
        const rules = (disallowed.get(server.origin) ?? []).map((p) => `Disallow: ${p}\n`).join('');
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\n${rules}Allow: /\n`);
        return;
      }
      answer(byUrl.get(`${server.origin}${req.url}`), res);
    });
    servers.push(server);
    local.set(origin, server.origin);
  }
  const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rewrite = (text: string) =>
    [...local].reduce(
      (out, [origin, to]) => out.replace(new RegExp(`${escapeRegex(origin)}(?=[/?#"]|$)`, 'gm'), to),
      text,
    );
  csv = rewrite(csv);
  for (const row of parse(csv, { columns: true, relax_column_count: true }) as Row[]) {
    if (!row.Address) continue;
    byUrl.set(row.Address, row);
    if (/blocked by robots/i.test(row['Indexability Status'] ?? '')) {
      const url = new URL(row.Address);
      disallowed.set(url.origin, [...(disallowed.get(url.origin) ?? []), url.pathname + url.search]);
    }
  }
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  // One host holds most of each site: the politeness limits have their own tests, this one is about verdicts.
  vi.stubEnv('SPOT_CHECK_PER_HOST', '10');
  vi.stubEnv('ALLOWED_PORTS', servers.map((s) => s.port).join(','));
  return { csv, declared: declared.map((u) => rewrite(u)) };
}

interface Checked {
  url: string;
  list: string;
  reason: string;
  verdict: string;
  liveReason: string | null;
  explanation: string;
}

/** Audits the rewritten export against the declared URLs, spot-checks every row of every list through the
 * real run steps, and returns the checked rows. */
async function auditAndCheck(csv: string, declared: string[]): Promise<Checked[]> {
  const dir = os.tmpdir();
  const sitemap = path.join(dir, `replay-${randomUUID()}.xml`);
  const crawl = path.join(dir, `replay-${randomUUID()}.csv`);
  writeFileSync(sitemap, urlsetXml(declared.map(escapeHtml)));
  writeFileSync(crawl, csv);
  const auditId = randomUUID();
  await insertAudit(auditId, 'replayed export', { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'upload', fileName: 'sitemap.xml', storedPath: sitemap },
    { role: 'crawl', kind: 'upload', fileName: 'internal_all.csv', storedPath: crawl },
  ]);
  await runAuditStep('ingest', auditId);
  await runAuditStep('reconcile', auditId);
  for (const list of ['prune', 'held', 'add'] as const) {
    const { rows } = await pool().query('SELECT 1 FROM findings WHERE audit_id = $1 AND list = $2 LIMIT 1', [
      auditId,
      list,
    ]);
    if (rows.length === 0) continue;
    const runId = await startSpotCheck(auditId, { filter: { list } }, 'replay test');
    await runStep(spotCheckRun, 'select', { runId, attempt: 1 });
    await runStep(spotCheckRun, 'check', { runId, attempt: 1 });
  }
  const { rows } = await pool().query<Checked>(
    `SELECT i.url, i.list, i.reason, i.verdict, i.live_reason AS "liveReason", i.explanation
       FROM spot_check_items i JOIN spot_check_runs r ON r.id = i.run_id
      WHERE r.audit_id = $1 ORDER BY i.list, i.url`,
    [auditId],
  );
  return rows;
}

/** Rows whose verdict is not the one an unchanged site must get, with why (the failure message). */
function disagreements(rows: Checked[], crawled: Set<string>): string[] {
  return rows
    .filter((r) => {
      const expected = crawled.has(r.url) ? 'confirmed' : 'dead';
      return r.verdict !== expected;
    })
    .map((r) => `${r.list}/${r.reason} ${r.url}: ${r.verdict} (${r.liveReason}) — ${r.explanation}`);
}

const addresses = (csv: string) =>
  new Set((parse(csv, { columns: true, relax_column_count: true }) as Row[]).map((r) => r.Address ?? ''));

describe('a spot-check of a site unchanged since its real crawl export agrees with every reason', () => {
  it.each([
    {
      site: 'squareone.ca (redirects, noindex, PDFs, SVG, CSS)',
      file: 'crawl-exports/sf-internal_all-squareone.ca.csv',
      problems: 12,
      pages: 100,
    },
    {
      site: 'kerkarmedia.com (blocked by robots.txt, 404s, noindex, a Yoast sitemap declared)',
      file: 'crawl-exports/sf-internal_all-kerkarmedia.com.csv',
      problems: 60,
      pages: 50,
    },
    {
      site: 'a contractor template site (429 rate limits, 404s)',
      file: 'crawl-exports/sf-internal_all-contractorwebsitetemplate.csv',
      problems: 6,
      pages: 20,
    },
  ])(
    '$site: its problems and half its pages declared, the other half to add',
    async ({ file, problems, pages }) => {
      const raw = parse(readFileSync(fixturePath(file), 'utf8'), {
        columns: true,
        bom: true,
        relax_column_count: true,
      }) as Row[];
      // Every row the export calls non-indexable, every other indexable page, and one URL the crawl never
      // reached; the rest of the pages belong on the add list.
      const first = new URL(raw[0]?.Address ?? '').origin;
      const declared = [
        ...raw.filter((r, i) => r.Indexability !== 'Indexable' || i % 2 === 1).map((r) => r.Address ?? ''),
        `${first}/no-longer-anywhere`,
      ];
      const { csv, declared: local } = await replay(file, declared);
      const rows = await auditAndCheck(csv, local);
      const counts = (list: string) => rows.filter((r) => r.list === list).length;
      expect(counts('prune') + counts('held')).toBeGreaterThanOrEqual(problems);
      expect(counts('add')).toBeGreaterThanOrEqual(pages);
      expect(disagreements(rows, addresses(csv))).toEqual([]);
    },
    60_000,
  );

  it('ayrshirefencinggroup.com: its real sitemap (www) against its crawl (www → apex, canonicals back)', async () => {
    const sitemap = readFileSync(fixturePath('xml/recon-ayrshire-sitemap.xml'), 'utf8');
    const declared = [...sitemap.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1] as string);
    expect(declared).toHaveLength(79);
    const { csv, declared: local } = await replay('crawl-exports/recon-ayrshire-internal_all.csv', declared);
    const rows = await auditAndCheck(csv, local);
    const reasons = new Set(rows.map((r) => r.reason));
    // The crawl reached 9 of the 79 as declared (the site serves the apex): the loops are held as
    // canonical_conflict and what it never reached as crawl_mismatch (docs/reconciliation.md).
    expect([...reasons]).toEqual(expect.arrayContaining(['canonical_conflict', 'crawl_mismatch']));
    expect(disagreements(rows, addresses(csv))).toEqual([]);
  }, 60_000);
});
