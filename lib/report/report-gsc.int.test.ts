// The shared report's "Search Console" section: the gap table, the bars and the
// indexed-over-time chart on the page, and the table, drawn bars and property totals in the PDF, from an
// import stored as the import step stores it (cowboykimono's real Chart.csv: 737 not indexed, 78 indexed);
// an audit with nothing imported says so in one line.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import SharedReportPage from '@/app/r/[token]/page';
import { createShare, createUser } from '@/lib/auth/mutations';
import { pool } from '@/lib/db/client';
import { bucketOf } from '@/lib/findings/evidence/gsc-reasons';
import { parseGscFile } from '@/lib/gsc/parse';
import { pdfText } from '@/lib/test-support/pdf-text';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { normalizeUrl } from '@/lib/urls/normalize';
import { buildReportPdf } from './pdf';
import { loadPdfReport } from './pdf-data';
import { openShare } from './shared';

const HOST = 'https://gsc-report.example';
const s = Array.from({ length: 10 }, (_, i) => `${HOST}/s/${i + 1}`);
const t = Array.from({ length: 20 }, (_, i) => `${HOST}/t/${i + 1}`);

/** An import of: 4 of s.xml's 10 URLs redirecting (40 %), 2 of t.xml's 20 not found (10 %), the rest of
 * t.xml indexed; the real overview chart; a Sitemaps report where t.xml could not be fetched. */
async function storeImport(auditId: string): Promise<void> {
  const id = randomUUID();
  await pool().query(
    `INSERT INTO gsc_imports (id, audit_id, status, phase, step, uploads, created_by, finished_at)
     VALUES ($1, $2, 'succeeded', 'done', NULL, '[]', 'Tess Tester', now())`,
    [id, auditId],
  );
  const states = [
    ...s.slice(0, 4).map((url) => ({ url, state: 'not_indexed', reason: 'Page with redirect' })),
    ...t.slice(0, 2).map((url) => ({ url, state: 'not_indexed', reason: 'Not found (404)' })),
    ...t.slice(2).map((url) => ({ url, state: 'indexed', reason: null })),
  ];
  await pool().query(
    `INSERT INTO gsc_url_states (import_id, export_index, line, audit_id, url, key, state, reason, bucket, source)
     SELECT $1, 0, x.n::int + 1, $2, x.url, x.key, x.state, x.reason, x.bucket, 'drilldown'
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
            AS x(url, key, state, reason, bucket, n)`,
    [
      id,
      auditId,
      states.map((x) => x.url),
      states.map((x) => normalizeUrl(x.url, 'exact')),
      states.map((x) => x.state),
      states.map((x) => x.reason),
      states.map((x) => (x.reason ? bucketOf(x.reason) : null)),
    ],
  );
  const chart = parseGscFile(
    'Chart.csv',
    readFileSync(
      path.resolve(import.meta.dirname, '../../../shared/fixtures/gsc/cowboykimono-overview/Chart.csv'),
    ),
  );
  if (chart.kind !== 'overview-chart') throw new Error(chart.kind);
  await pool().query(
    `INSERT INTO gsc_chart_points (import_id, export_index, date, audit_id, indexed, not_indexed)
     SELECT $1, 1, p.date::date, $2, p.indexed, p.not_indexed
       FROM unnest($3::text[], $4::int[], $5::int[]) AS p(date, indexed, not_indexed)`,
    [
      id,
      auditId,
      chart.rows.map((r) => r.date),
      chart.rows.map((r) => r.indexed),
      chart.rows.map((r) => r.notIndexed),
    ],
  );
  await pool().query(
    `INSERT INTO gsc_sitemap_reports (import_id, export_index, line, audit_id, sitemap, last_read, status)
     VALUES ($1, 2, 2, $2, $3, now()::date, 'Couldn''t fetch')`,
    [id, auditId, `${HOST}/t.xml`],
  );
}

let token = '';
let quietToken = '';

beforeAll(async () => {
  const crawl = [JSON.stringify({ url: `${HOST}/s/1`, status: 200, crawled_at: '2026-11-01T00:00:00Z' })];
  const [audit, quiet] = await Promise.all([
    reconciledAuditOf('GSC report', { sitemaps: { 's.xml': urlsetXml(s), 't.xml': urlsetXml(t) }, crawl }),
    reconciledAuditOf('GSC quiet', { sitemaps: { 's.xml': urlsetXml(s) }, crawl }),
  ]);
  await storeImport(audit);
  const user = await createUser({
    email: `report-gsc-${randomUUID()}@example.com`,
    name: 'Rita Reviewer',
    role: 'reviewer',
    password: 'x'.repeat(12),
  });
  token = (await createShare(audit, user.id, null)).token;
  quietToken = (await createShare(quiet, user.id, null)).token;
});

async function render(shareToken: string): Promise<string> {
  const props = { params: Promise.resolve({ token: shareToken }), searchParams: Promise.resolve({}) };
  return renderToStaticMarkup(await SharedReportPage(props));
}

async function pdf(shareToken: string): Promise<string> {
  const share = await openShare(shareToken);
  if (!share) throw new Error('share expected');
  return pdfText(await buildReportPdf(await loadPdfReport(share)));
}

describe('the page', () => {
  it('shows the gap table largest gap first, the bars, the chart and the property totals', async () => {
    const html = await render(token);
    const start = html.indexOf('data-testid="report-gsc"');
    expect(start).toBeGreaterThan(html.indexOf('data-testid="report-spot-check"'));
    const section = html.slice(start, html.indexOf('</section>', start));
    const rows = section.split('data-testid="report-gsc-row"').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('s.xml');
    expect(rows[0]).toMatch(
      /<td[^>]*>10<\/td><td[^>]*>0<\/td><td[^>]*>4<div class="muted small">4 Page with redirect<\/div><\/td><td[^>]*>6<\/td><td[^>]*>40 %<\/td>/,
    );
    expect(rows[0]).toContain('Problem');
    expect(rows[1]).toContain('t.xml');
    expect(rows[1]).toMatch(
      /<td[^>]*>20<\/td><td[^>]*>18<\/td><td[^>]*>2<div class="muted small">2 Not found \(404\)<\/div><\/td><td[^>]*>0<\/td><td[^>]*>10 %<\/td>/,
    );
    expect(rows[1]).toContain('Investigate');
    expect(rows[1]).toContain('fetch problem');
    expect(section.split('data-testid="report-gsc-bar"')).toHaveLength(3);
    expect(section).toContain('<polyline');
    expect(section).toMatch(/<strong>78<\/strong> indexed, <strong>737<\/strong> not\s+indexed/);
  });

  it('says in one line when nothing was imported', async () => {
    const html = await render(quietToken);
    expect(html).toContain('No Search Console data was imported for this audit.');
    expect(html).not.toContain('report-gsc-table');
  });
});

describe('the PDF', () => {
  it('has the property totals, the drawn bars and the gap table', async () => {
    const text = await pdf(token);
    // The section's heading (the cover's contents name it too), up to the first list's.
    const start = text.indexOf('Search Console\n');
    const section = text.slice(start, text.indexOf('Prune list', start));
    const flat = section.replace(/\s*\n\s*/g, ' ');
    expect(flat).toContain('78 indexed, 737 not indexed');
    expect(flat).toContain('Gap per sitemap file, charted');
    expect(flat).toContain('40 % problem');
    expect(flat).toContain('10 % investigate');
    const lines = section.split('\n');
    const table = lines.slice(lines.indexOf('Sitemap file'));
    expect(table).toEqual(expect.arrayContaining(['s.xml', '10', '0', '4', '6', '40 %', 'Problem']));
    expect(table).toEqual(expect.arrayContaining(['t.xml', '20', '18', '2', '10 %', 'Investigate']));
    expect(flat).toContain('4 Page with redirect');
    expect(flat).toContain('! fetch problem');
  });

  it('says in one line when nothing was imported', async () => {
    const text = await pdf(quietToken);
    expect(text).toContain('No Search Console data was imported for this audit.');
    expect(text).not.toContain('Gap per sitemap file');
  });
});
