// The shared report on a real database: a live token opens its audit (page data and PDF), revoked, expired
// and unknown tokens look the same (nothing), and a share never shows another audit's findings.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import SharedReportPage, { generateMetadata } from '@/app/r/[token]/page';
import { GET as pdfRoute } from '@/app/r/[token]/report.pdf/route';
import { insertAudit } from '@/lib/audits/mutations';
import { createShare, createUser, revokeShare } from '@/lib/auth/mutations';
import { pool } from '@/lib/db/client';
import { decideByIds } from '@/lib/findings/mutations';
import { EXCLUDED_INFO, reasonInfo } from '@/lib/findings/reasons';
import { pdfText } from '@/lib/test-support/pdf-text';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { buildReportPdf } from './pdf';
import { loadPdfReport, loadReportPage, openShare, PDF_ROWS_PER_LIST, reportFileName } from './shared';

const ALPHA = 'Audit Alpha';
const BRAVO = 'Audit Bravo';

/** A reconciled audit on one host: `declared` sitemap URLs of which every 2nd is crawled, plus `added`
 * crawled pages no sitemap declares. Prune = the uncrawled half, add = the extra pages. */
async function reconciledAudit(name: string, host: string, declared: number, added: number): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'report-'));
  const urls: string[] = [];
  const crawl: string[] = [];
  const at = '2026-11-01T00:00:00Z';
  for (let i = 1; i <= declared; i++) {
    const url = `https://${host}/p/${i}`;
    urls.push(`<url><loc>${url}</loc></url>`);
    if (i % 2 === 0) crawl.push(JSON.stringify({ url, status: 200, indexable: true, crawled_at: at }));
  }
  for (let i = 1; i <= added; i++)
    crawl.push(JSON.stringify({ url: `https://${host}/new/${i}`, status: 200, crawled_at: at }));
  writeFileSync(
    path.join(dir, 's.xml'),
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
  );
  writeFileSync(path.join(dir, 'c.jsonl'), crawl.join('\n'));
  const id = randomUUID();
  await insertAudit(id, name, { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'upload', fileName: 's.xml', storedPath: path.join(dir, 's.xml') },
    { role: 'crawl', kind: 'upload', fileName: 'c.jsonl', storedPath: path.join(dir, 'c.jsonl') },
  ]);
  await runAuditStep('ingest', id);
  await runAuditStep('reconcile', id);
  return id;
}

function pdfRequest(token: string) {
  return pdfRoute(new Request(`http://localhost/r/${token}/report.pdf`), {
    params: Promise.resolve({ token }),
  });
}

/** The search params of a report link (`?list=...&cursor=...`). */
function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(href.replace(/^\?/, '')));
}

let alphaId = '';
let bravoId = '';
let userId = '';
let alphaToken = '';
let alphaShareId = '';
let bravoToken = '';

beforeAll(async () => {
  [alphaId, bravoId] = await Promise.all([
    // 550 to prune (more than a PDF list holds), 30 to add.
    reconciledAudit(ALPHA, 'alpha.example', 1100, 30),
    reconciledAudit(BRAVO, 'bravo.example', 40, 3),
  ]);
  const user = await createUser({
    email: `reviewer-${randomUUID()}@example.com`,
    name: 'Rita Reviewer',
    role: 'reviewer',
    password: 'x'.repeat(12),
  });
  userId = user.id;
  const alphaShare = await createShare(alphaId, userId, new Date(Date.now() + 3600_000));
  alphaToken = alphaShare.token;
  alphaShareId = alphaShare.id;
  bravoToken = (await createShare(bravoId, userId, null)).token;
  // One reviewed row, so the report has a decision, a reviewer name and a note to show.
  const { rows } = await pool().query<{ id: number }>(
    `SELECT id FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY id LIMIT 1`,
    [alphaId],
  );
  await decideByIds(alphaId, [rows[0]?.id ?? 0], {
    decision: 'approved',
    by: 'Rita Reviewer',
    note: 'Gone for good',
  });
});

describe('the report page data', () => {
  it('opens the audit of a live token and shows its summary and first page', async () => {
    const share = await openShare(alphaToken);
    expect(share?.audit.id).toBe(alphaId);
    if (!share) return;
    const data = await loadReportPage(share, {});
    expect(data.audit.name).toBe(ALPHA);
    expect(data.audit.findings?.prune).toEqual({ total: 550, byReason: { unreached_by_crawl: 550 } });
    expect(data.audit.findings?.add.total).toBe(30);
    expect(data.perList.isEmpty).toBe(false);
    expect(data.perList.bars.map((b) => b.key)).toEqual([
      'prune:unreached_by_crawl',
      'add:reachable_not_declared',
    ]);
    expect(data.view).toEqual({ list: 'prune', cursor: undefined, start: 1 });
    expect(data.page?.total).toBe(550);
    expect(data.page?.items).toHaveLength(100);
    expect(data.page?.items.every((f) => f.url.startsWith('https://alpha.example/p/'))).toBe(true);
    const reviewed = data.page?.items[0];
    expect(reviewed).toMatchObject({
      decision: 'approved',
      decidedBy: 'Rita Reviewer',
      note: 'Gone for good',
    });
    expect(reviewed?.decidedAt).toBeTruthy();
    expect(data.nextHref).toMatch(/^\?list=prune&cursor=[^&]+&start=101$/);
  });

  it('records the view on the share', async () => {
    const share = await openShare(alphaToken);
    if (!share) throw new Error('share expected');
    await loadReportPage(share, {});
    const { rows } = await pool().query('SELECT last_viewed_at FROM shares WHERE id = $1', [alphaShareId]);
    expect(rows[0]?.last_viewed_at).toBeInstanceOf(Date);
  });

  it('walks a list by keyset pages of 100, each row once', async () => {
    const share = await openShare(alphaToken);
    if (!share) throw new Error('share expected');
    const seen = new Set<number>();
    let params: Record<string, string> = { list: 'prune' };
    let pages = 0;
    for (;;) {
      const data = await loadReportPage(share, params);
      pages += 1;
      expect(data.view.start).toBe(seen.size + 1);
      for (const item of data.page?.items ?? []) seen.add(item.id);
      if (!data.nextHref) break;
      params = paramsOf(data.nextHref);
    }
    expect(pages).toBe(6);
    expect(seen.size).toBe(550);
  });

  it('switches lists with ?list= and ignores an invalid list or cursor', async () => {
    const share = await openShare(alphaToken);
    if (!share) throw new Error('share expected');
    const add = await loadReportPage(share, { list: 'add' });
    expect(add.view.list).toBe('add');
    expect(add.page?.total).toBe(30);
    expect(add.page?.items.every((f) => f.url.startsWith('https://alpha.example/new/'))).toBe(true);
    expect(add.nextHref).toBeNull();
    const bogus = await loadReportPage(share, { list: 'nope', cursor: 'not-a-cursor', start: '9' });
    expect(bogus.view).toEqual({ list: 'prune', cursor: undefined, start: 1 });
    expect(bogus.page?.items).toHaveLength(100);
  });
});

describe('the PDF', () => {
  it('is a PDF download of the audit: summary, warnings and the first 500 rows of each list', async () => {
    const res = await pdfRequest(alphaToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-alpha-report.pdf"');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const text = pdfText(pdf);
    expect(text).toContain('Sitemap audit report');
    expect(text).toContain(ALPHA);
    expect(text).toContain('Prune list: 550 rows');
    expect(text).toContain('Add list: 30 rows');
    expect(text).toContain('Not reached by the crawl');
    expect(text).toContain('Rita Reviewer');
    expect(text).toContain('Warnings');
    expect(text).toContain('and 50 more rows');
    // Each reason and each Not added bucket explained, in the words the app uses.
    const unreached = reasonInfo('unreached_by_crawl');
    expect(text).toContain(`${unreached.definition} Usual fix:`);
    expect(text).toContain('Not added: crawled pages the Add list leaves out');
    for (const info of Object.values(EXCLUDED_INFO)) {
      expect(text).toContain(info.label);
      expect(text).toContain(info.definition.slice(0, 40));
    }
    expect(text).toContain('Blocked by robots.txt: 0, Not 200: 0, Not HTML: 0, Canonicalised: 0, Noindex: 0');
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('https://alpha.example/p/'))).toHaveLength(PDF_ROWS_PER_LIST);
    expect(lines.filter((l) => l.startsWith('https://alpha.example/new/'))).toHaveLength(30);
    expect(text).not.toContain(BRAVO);
    expect(text).not.toContain('bravo.example');
  });

  it('builds uncompressed too, and keeps characters Helvetica cannot show from breaking it', async () => {
    const share = await openShare(bravoToken);
    if (!share) throw new Error('share expected');
    const data = await loadPdfReport(share, new Date('2026-12-01T10:00:00Z'));
    data.audit = { ...data.audit, name: 'Bravo 监控 — ünïcode' };
    const pdf = await buildReportPdf(data, { compress: false });
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const text = pdfText(pdf);
    expect(text).toContain('Bravo ?? \x97 ünïcode');
    expect(text).toContain('Generated 1 Dec 2026, 10:00 UTC');
    expect(reportFileName('Bravo 监控 — ünïcode')).toBe('bravo-unicode-report.pdf');
  });
});

describe('links that do not open anything', () => {
  it('gives nothing and a 404 for an unknown token', async () => {
    for (const token of ['sar_unknown', `sar_${'A'.repeat(43)}`, '../../etc', '']) {
      expect(await openShare(token)).toBeNull();
    }
    const res = await pdfRequest('sar_unknown');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/plain');
  });

  it('gives the same for a revoked share', async () => {
    const share = await createShare(alphaId, userId, null);
    expect(await openShare(share.token)).not.toBeNull();
    await revokeShare(share.id, userId);
    expect(await openShare(share.token)).toBeNull();
    const res = await pdfRequest(share.token);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });

  it('gives the same for an expired share', async () => {
    const share = await createShare(alphaId, userId, new Date(Date.now() + 3600_000));
    expect(await openShare(share.token)).not.toBeNull();
    await pool().query("UPDATE shares SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      share.id,
    ]);
    expect(await openShare(share.token)).toBeNull();
    const res = await pdfRequest(share.token);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });
});

describe('one audit per share', () => {
  it("never shows another audit's findings, even with the other audit's cursor", async () => {
    const bravo = await openShare(bravoToken);
    expect(bravo?.audit.id).toBe(bravoId);
    if (!bravo) return;
    const data = await loadReportPage(bravo, { list: 'prune' });
    expect(data.audit.name).toBe(BRAVO);
    expect(data.page?.total).toBe(20);
    expect(data.page?.items.every((f) => f.url.startsWith('https://bravo.example/'))).toBe(true);

    const alpha = await openShare(alphaToken);
    if (!alpha) throw new Error('share expected');
    const alphaPage = await loadReportPage(alpha, { list: 'prune' });
    const alphaCursor = paramsOf(alphaPage.nextHref ?? '').cursor ?? '';
    expect(alphaCursor).not.toBe('');
    for (const list of ['prune', 'add', 'held']) {
      const page = await loadReportPage(bravo, { list, cursor: alphaCursor });
      expect(page.page?.items.every((f) => f.url.startsWith('https://bravo.example/'))).toBe(true);
    }
    const res = await pdfRequest(bravoToken);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain(BRAVO);
    expect(text).not.toContain(ALPHA);
    expect(text).not.toContain('alpha.example');
  });
});

describe('the page', () => {
  async function render(token: string, searchParams: Record<string, string> = {}) {
    const props = { params: Promise.resolve({ token }), searchParams: Promise.resolve(searchParams) };
    return {
      meta: await generateMetadata(props),
      html: renderToStaticMarkup(await SharedReportPage(props)),
    };
  }

  it('renders the report of its audit only, without links into the app, and keeps robots out', async () => {
    const { meta, html } = await render(alphaToken);
    expect(meta).toMatchObject({ robots: { index: false, follow: false }, referrer: 'no-referrer' });
    expect(html).toContain(ALPHA);
    expect(html).toContain('Rita Reviewer');
    expect(html).toContain('550 rows');
    // The list's table only (the charts' text alternatives are tables too).
    expect(html.slice(html.indexOf('data-testid="report-table"')).match(/<tr>/g)).toHaveLength(101);
    // The list's reasons explained, each with its fix, and on the reason cells; every Not added bucket.
    const unreached = reasonInfo('unreached_by_crawl');
    expect(html).toContain(`data-testid="report-reason-unreached_by_crawl"`);
    expect(html).toContain(unreached.definition);
    expect(html).toContain(`Usual fix: ${unreached.fix}`);
    expect(html).toContain(`title="${unreached.definition} Usual fix: ${unreached.fix}"`);
    for (const bucket of Object.keys(EXCLUDED_INFO)) expect(html).toContain(`report-excluded-${bucket}`);
    expect(html).toContain(`href="/r/${alphaToken}/report.pdf"`);
    expect(html).not.toContain(BRAVO);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.every((href) => href.startsWith('?list=') || href === `/r/${alphaToken}/report.pdf`)).toBe(
      true,
    );
    expect(html).not.toMatch(/<(form|button|input|select|textarea)\b/);
  });

  it('shows the asked list and page', async () => {
    const { html } = await render(alphaToken, { list: 'add' });
    expect(html).toContain('aria-current="page" data-testid="report-tab-add"');
    expect(html).toContain('30 rows');
    expect(html).toContain('https://alpha.example/new/1<');
    expect(html).not.toContain('report-next-page');
  });

  it('is a 404 for a token that opens nothing', async () => {
    const revoked = await createShare(alphaId, userId, null);
    await revokeShare(revoked.id, userId);
    for (const token of ['sar_unknown', revoked.token]) {
      const props = { params: Promise.resolve({ token }), searchParams: Promise.resolve({}) };
      expect((await generateMetadata(props)).title).toBe('Audit report');
      await expect(SharedReportPage(props)).rejects.toMatchObject({ digest: 'NEXT_HTTP_ERROR_FALLBACK;404' });
    }
  });
});
