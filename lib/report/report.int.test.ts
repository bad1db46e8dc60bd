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
import { EXCLUDED_INFO, reasonInfo } from '@/lib/findings/reasons';
import { decideByIds } from '@/lib/review/mutations';
import { pdfText } from '@/lib/test-support/pdf-text';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { buildReportPdf } from './pdf';
import { loadPdfReport, PDF_ROWS_PER_REASON } from './pdf-data';
import { loadReportPage, openShare, reportFileName } from './shared';

/** The page's markup without the <wbr> break hints inside its URLs (BreakableUrl), so URLs read whole. */
function markup(node: Parameters<typeof renderToStaticMarkup>[0]): string {
  return renderToStaticMarkup(node).replaceAll('<wbr/>', '');
}

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

/** Prune rows of two reasons in one crawled section: /p/a1…a10 the crawl never reached, /p/b1…b8 answered
 * 404 (and /p/ok is fine). */
async function twoReasonAudit(): Promise<string> {
  const at = '2026-11-01T00:00:00Z';
  const a = Array.from({ length: 10 }, (_, i) => `https://charlie.example/p/a${i + 1}`);
  const b = Array.from({ length: 8 }, (_, i) => `https://charlie.example/p/b${i + 1}`);
  const ok = 'https://charlie.example/p/ok';
  return reconciledAuditOf('Audit Charlie', {
    sitemaps: { 's.xml': urlsetXml([...a, ...b, ok]) },
    crawl: [
      ...b.map((url) => JSON.stringify({ url, status: 404, indexable: false, crawled_at: at })),
      JSON.stringify({ url: ok, status: 200, indexable: true, crawled_at: at }),
    ],
  });
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
let charlieToken = '';

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
  charlieToken = (await createShare(await twoReasonAudit(), userId, null)).token;
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

describe('filtering and searching the report', () => {
  it('searches a list by URL substring through the token, page by page with the search kept', async () => {
    const share = await openShare(alphaToken);
    if (!share) throw new Error('share expected');
    // Odd numbers are pruned: /p/1, /p/11…19, /p/101…199 and /p/1001…1099 hold "/p/1".
    const first = await loadReportPage(share, { list: 'prune', q: '/p/1' });
    expect(first.view.q).toBe('/p/1');
    expect(first.page?.total).toBe(106);
    expect(first.page?.items).toHaveLength(100);
    expect(first.page?.items.every((f) => f.url.includes('/p/1'))).toBe(true);
    expect(first.nextHref).toMatch(/^\?list=prune&q=%2Fp%2F1&cursor=[^&]+&start=101$/);
    const second = await loadReportPage(share, paramsOf(first.nextHref ?? ''));
    expect(second.view).toMatchObject({ q: '/p/1', start: 101 });
    expect(second.page?.items.map((f) => f.url).sort()).toEqual(
      expect.arrayContaining(['https://alpha.example/p/1099']),
    );
    expect(second.page?.items).toHaveLength(6);
    expect(second.nextHref).toBeNull();
    const narrow = await loadReportPage(share, { list: 'prune', q: '/P/55' });
    expect(narrow.page?.items.map((f) => f.url).sort()).toEqual(
      [55, 551, 553, 555, 557, 559].map((n) => `https://alpha.example/p/${n}`),
    );
  });

  it('filters a list by reason, and ignores a reason that is not a reason code', async () => {
    const share = await openShare(charlieToken);
    if (!share) throw new Error('share expected');
    const all = await loadReportPage(share, { list: 'prune' });
    expect(all.audit.findings?.prune.byReason).toEqual({ unreached_by_crawl: 10, http_404: 8 });
    expect(all.page?.total).toBe(18);
    const gone = await loadReportPage(share, { list: 'prune', reason: 'http_404' });
    expect(gone.view.reason).toBe('http_404');
    expect(gone.page?.total).toBe(8);
    expect(gone.page?.items.every((f) => f.reason === 'http_404' && f.url.includes('/p/b'))).toBe(true);
    const both = await loadReportPage(share, { list: 'prune', reason: 'unreached_by_crawl', q: '/p/a1' });
    expect(both.page?.items.map((f) => f.url).sort()).toEqual([
      'https://charlie.example/p/a1',
      'https://charlie.example/p/a10',
    ]);
    const bogus = await loadReportPage(share, { list: 'prune', reason: "x' OR 1=1 --" });
    expect(bogus.view.reason).toBeUndefined();
    expect(bogus.page?.total).toBe(18);
  });

  it("never finds another audit's rows", async () => {
    const share = await openShare(charlieToken);
    if (!share) throw new Error('share expected');
    const other = await loadReportPage(share, { list: 'prune', q: 'alpha.example' });
    expect(other.page?.total).toBe(0);
    expect(other.page?.items).toEqual([]);
  });

  it('renders the reason filters and the search as links and a GET form of the report', async () => {
    const props = {
      params: Promise.resolve({ token: charlieToken }),
      searchParams: Promise.resolve({ list: 'prune', reason: 'http_404', q: '/p/b' }),
    };
    const html = markup(await SharedReportPage(props));
    expect(html).toContain('8 matching rows');
    expect(html.match(/data-testid="report-row"/g)).toHaveLength(8);
    expect(html).toContain(
      `data-testid="report-reason-filter-all" href="/r/${charlieToken}?list=prune&amp;q=%2Fp%2Fb"`,
    );
    expect(html).toContain(
      `aria-current="true" data-testid="report-reason-filter-http_404" href="/r/${charlieToken}?list=prune&amp;reason=http_404&amp;q=%2Fp%2Fb"`,
    );
    expect(html.match(/aria-current="true"/g)).toHaveLength(1);
    expect(html).toContain('name="q" value="/p/b"');
    expect(html).toContain('<input type="hidden" name="reason" value="http_404"/>');
    // Switching lists keeps the search but not the reason (each list has its own reasons).
    expect(html).toContain(`href="/r/${charlieToken}?list=add&amp;q=%2Fp%2Fb"`);
    expect(html).toContain(`data-testid="report-search-clear"`);
    const none = markup(
      await SharedReportPage({
        params: Promise.resolve({ token: charlieToken }),
        searchParams: Promise.resolve({ list: 'prune', q: 'nothing-like-this' }),
      }),
    );
    expect(none).toContain('No rows match these filters.');
  });
});

describe('the PDF', () => {
  it('is a PDF download of the audit: cover, summary, warnings and the top rows of each reason', async () => {
    const res = await pdfRequest(alphaToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-alpha-report.pdf"');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    const text = pdfText(pdf);
    expect(text).toContain('Sitemap audit report');
    expect(text).toContain(ALPHA);
    expect(text).toContain('alpha.example');
    expect(text).toContain('Prune list: 550 rows');
    expect(text).toContain('Add list: 30 rows');
    expect(text).toContain('Not reached by the crawl: 550 rows');
    expect(text).toContain('Approved by Rita Reviewer');
    expect(text).toContain('Warnings');
    // Left out rows are counted, and the link (not an app the reader has no account for) shows them.
    expect(text).toContain(
      `${550 - PDF_ROWS_PER_REASON} more rows with this reason are not in this PDF: the shared link shows them all`,
    );
    expect(text).not.toMatch(/export the CSV/i);
    // Each reason and each Not added bucket explained, in the words the app uses.
    const unreached = reasonInfo('unreached_by_crawl');
    expect(text.replace(/\s*\n\s*/g, ' ')).toContain(unreached.definition);
    expect(text).toContain('Not added: crawled pages the Add list leaves out');
    for (const info of Object.values(EXCLUDED_INFO)) {
      expect(text).toContain(info.label);
      expect(text).toContain(info.definition.slice(0, 40));
    }
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('https://alpha.example/p/'))).toHaveLength(PDF_ROWS_PER_REASON);
    expect(lines.filter((l) => l.startsWith('https://alpha.example/new/'))).toHaveLength(PDF_ROWS_PER_REASON);
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
    expect(text).toContain('1 Dec 2026, 10:00 UTC');
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
      html: markup(await SharedReportPage(props)),
    };
  }

  it('renders the report of its audit only, without links into the app, and keeps robots out', async () => {
    const { meta, html } = await render(alphaToken);
    expect(meta).toMatchObject({ robots: { index: false, follow: false }, referrer: 'no-referrer' });
    expect(html).toContain(ALPHA);
    expect(html).toContain('Rita Reviewer');
    expect(html).toContain('550 rows');
    // The list's table only (the charts' text alternatives are tables too).
    expect(html.match(/data-testid="report-row"/g)).toHaveLength(100);
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
    expect(
      hrefs.every(
        (href) => href.startsWith(`/r/${alphaToken}?list=`) || href === `/r/${alphaToken}/report.pdf`,
      ),
    ).toBe(true);
    // The only form is the URL search, a GET of this report; nothing can change the audit.
    expect(html.match(/<form\b[^>]*>/g)).toEqual([
      `<form class="report-search" role="search" data-testid="report-search" action="/r/${alphaToken}">`,
    ]);
    expect(html).not.toMatch(/method="post"|<(select|textarea)\b/i);
    expect(html.match(/<button\b[^>]*>/g)).toEqual(['<button type="submit" class="button button--small">']);
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
