// The web process stays bounded whatever an audit holds: an audit of 50,000 findings whose stored rows hold
// a 5 MB URL, a 1 MB note and a page of 100 KB URLs (written straight into the findings table, as old
// audits from before the ingest cap may hold them) gives a shared report page, a PDF and an API page of
// bounded size, with bounded heap growth, in bounded time; `javascript:` and `data:` locations are shown
// as text, never as links.
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { GET as sitemapsRoute } from '@/app/api/v1/audits/[id]/sitemaps/route';
import SharedReportPage from '@/app/r/[token]/page';
import { GET as pdfRoute } from '@/app/r/[token]/report.pdf/route';
import { createShare, createUser } from '@/lib/auth/mutations';
import { DISPLAY_MAX_CHARS } from '@/lib/core/display';
import { formatCount } from '@/lib/core/format';
import { pool } from '@/lib/db/client';
import type { FindingPage } from '@/lib/findings/schema';
import { testCaller } from '@/lib/test-support/auth';
import { pdfText } from '@/lib/test-support/pdf-text';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { PDF_ROWS_PER_REASON } from './pdf-data';
import { REPORT_PAGE_SIZE } from './shared';

/** The page's markup without the <wbr> break hints inside its URLs (BreakableUrl), so URLs read whole. */
function markup(node: Parameters<typeof renderToStaticMarkup>[0]): string {
  return renderToStaticMarkup(node).replaceAll('<wbr/>', '');
}

const FINDINGS = 50_000;
const PRUNE = FINDINGS - 1 + 3;
const BIG = 5 * 1024 * 1024;
const JS_URL = 'javascript:alert(document.cookie)//';
const DATA_URL = 'data:text/html,<script>alert(1)</script>';

// A real collection before each measurement, so that heap growth is what the call kept or built.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Runs `work`, sampling heap and array buffers every 2 ms; returns its result and the peak growth. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; growth: number; ms: number }> {
  gc();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = used();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, used());
  }, 2);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, used());
    const growth = peak - base;
    if (process.env.REPORT_BOUNDS_VERBOSE) console.log(`growth ${(growth / 2 ** 20).toFixed(1)} MB`);
    return { result, growth, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

let auditId = '';
let token = '';
let firstIds: number[] = [];

beforeAll(async () => {
  // 50,003 declared URLs, one crawled: 50,002 prune findings and one healthy match.
  const locs = Array.from({ length: FINDINGS }, (_, i) => `https://bounds.example/p/${i}`);
  auditId = await reconciledAuditOf('Bounds', {
    sitemaps: {
      'big.xml': urlsetXml(locs),
      'few.xml': urlsetXml([1, 2, 3].map((i) => `https://bounds.example/p/few-${i}`)),
    },
    crawl: [JSON.stringify({ url: locs[0], status: 200, crawled_at: '2026-11-01T00:00:00Z' })],
  });
  const { rows } = await pool().query<{ id: number }>(
    `SELECT id FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY id LIMIT ${REPORT_PAGE_SIZE}`,
    [auditId],
  );
  firstIds = rows.map((r) => r.id);
  expect(firstIds).toHaveLength(REPORT_PAGE_SIZE);
  const [big, js, data, ...rest] = firstIds;
  // What an audit stored before the ingest cap could hold, written where the web reads it.
  await pool().query(
    `UPDATE findings SET url = 'https://bounds.example/' || repeat('a', ${BIG}),
            redirect_url = 'https://bounds.example/r/' || repeat('r', ${BIG}),
            note = repeat('n', 1024 * 1024), decision = 'approved', decided_by = repeat('b', 100000),
            decided_at = now()
      WHERE audit_id = $1 AND id = $2`,
    [auditId, big],
  );
  await pool().query('UPDATE findings SET url = $3 WHERE audit_id = $1 AND id = $2', [auditId, js, JS_URL]);
  await pool().query('UPDATE findings SET url = $3 WHERE audit_id = $1 AND id = $2', [
    auditId,
    data,
    DATA_URL,
  ]);
  await pool().query(
    `UPDATE findings SET url = 'https://bounds.example/m/' || id || '/' || repeat('m', 100 * 1024)
      WHERE audit_id = $1 AND id = ANY ($2::int[])`,
    [auditId, rest],
  );
  // A signal warning quoting a 5 MB URL among its examples, as the reconcile wrote them.
  await pool().query(
    `UPDATE audits SET warnings = jsonb_build_array(jsonb_build_object('code', 'multi_file',
       'message', 'Declared in several files', 'count', 2,
       'examples', jsonb_build_array('https://bounds.example/w/' || repeat('w', ${BIG}), 'https://bounds.example/w2')))
      WHERE id = $1`,
    [auditId],
  );
  // A sitemap file's URL too (the small file's, so that an exact export stays a few rows), on its row
  // and in the per-file summary the reconcile stored.
  await pool().query(
    `UPDATE sitemap_files SET url = 'https://bounds.example/f/' || repeat('f', ${BIG})
      WHERE audit_id = $1 AND upload_name = 'few.xml'`,
    [auditId],
  );
  await pool().query(
    `UPDATE audits SET findings_summary = jsonb_set(findings_summary, '{byFile,0,url}',
       to_jsonb('https://bounds.example/f/' || repeat('f', ${BIG}))) WHERE id = $1`,
    [auditId],
  );
  const { rows: sizes } = await pool().query<{ chars: string }>(
    `SELECT sum(length(url) + coalesce(length(note), 0))::text AS chars FROM findings
      WHERE audit_id = $1 AND id = ANY ($2::int[])`,
    [auditId, firstIds],
  );
  // Not vacuous: the first page's stored texts alone are over 15 M characters.
  expect(Number(sizes[0]?.chars)).toBeGreaterThan(15_000_000);
  const user = await createUser({
    email: `bounds-${randomUUID()}@example.com`,
    name: 'Bea Bounds',
    role: 'reviewer',
    password: 'x'.repeat(12),
  });
  token = (await createShare(auditId, user.id, null)).token;
}, 120_000);

const MB = 1024 * 1024;

describe('the shared report page of an audit holding megabyte rows', () => {
  it('renders a bounded page, with the long values cut and their length noted', async () => {
    const props = { params: Promise.resolve({ token }), searchParams: Promise.resolve({ list: 'prune' }) };
    const { result: html, growth } = await measured(async () => markup(await SharedReportPage(props)));
    // The list's table only (the charts' text alternatives are tables too).
    expect(html.match(/data-testid="report-row"/g)).toHaveLength(REPORT_PAGE_SIZE);
    expect(html).toContain(`${formatCount(PRUNE)} rows`);
    expect(html).toContain(
      `https://bounds.example/${'a'.repeat(DISPLAY_MAX_CHARS - 23)}… (${BIG + 23} characters in all)`,
    );
    expect(html).toContain(`… (${1024 * 1024} characters in all)`); // the note
    expect(html).toContain(`… (${BIG + 25} characters in all)`); // the warning's example
    expect(html).toContain('https://bounds.example/w2');
    // 100 rows of at most ~2 KB of URL and note each, and the page around them.
    expect(html.length).toBeLessThan(1 * MB);
    // Measured: 2 MB; 48 MB when the reads were not cut.
    expect(growth).toBeLessThan(16 * MB);
  });

  it('shows javascript: and data: locations as text, never as a link', async () => {
    const props = { params: Promise.resolve({ token }), searchParams: Promise.resolve({ list: 'prune' }) };
    const html = markup(await SharedReportPage(props));
    expect(html).toContain('javascript:alert(document.cookie)//');
    expect(html).toContain('data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.some((href) => /^(javascript|data):/i.test(href))).toBe(false);
    expect(html).not.toContain('<script>alert');
  });
});

describe('the PDF of an audit holding megabyte rows', () => {
  it('streams a bounded document in bounded time, with its row cap stated', async () => {
    const { result, growth, ms } = await measured(async () => {
      const res = await pdfRoute(new Request(`http://localhost/r/${token}/report.pdf`), {
        params: Promise.resolve({ token }),
      });
      expect(res.status).toBe(200);
      // Streamed: no length is known beforehand, and the bytes arrive in several chunks.
      expect(res.headers.get('content-length')).toBeNull();
      const chunks: Uint8Array[] = [];
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
      return { pdf: Buffer.concat(chunks), chunks: chunks.length };
    });
    const { pdf, chunks } = result;
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(chunks).toBeGreaterThan(10);
    expect(pdf.length).toBeLessThan(2 * MB);
    // Measured: 16 MB (pdfkit and its fonts); 51 MB when the reads were not cut.
    expect(growth).toBeLessThan(32 * MB);
    expect(ms).toBeLessThan(15_000);
    const raw = pdf.toString('latin1');
    // No link annotations at all: a stored javascript: or data: URL cannot become a clickable action.
    expect(raw).not.toContain('/URI');
    expect(raw).not.toContain('/JavaScript');
  });

  it('states the cap and the rows it leaves out', async () => {
    const { buildReportPdf } = await import('./pdf');
    const { loadPdfReport } = await import('./pdf-data');
    const { openShare } = await import('./shared');
    const share = await openShare(token);
    if (!share) throw new Error('share expected');
    const text = pdfText(await buildReportPdf(await loadPdfReport(share)));
    expect(text).toContain(`The top ${PDF_ROWS_PER_REASON}.`);
    expect(text).toContain(`${formatCount(PRUNE - PDF_ROWS_PER_REASON)} more rows with this reason`);
    expect(text).toContain(JS_URL.slice(0, 20)); // drawn as text
    expect(text.split('\n').filter((l) => l.startsWith('https://bounds.example/'))).toHaveLength(
      PDF_ROWS_PER_REASON - 2,
    );
  });
});

describe('the API list of an audit holding megabyte rows', () => {
  it('answers a bounded page with every text cut', async () => {
    const viewer = await testCaller('viewer');
    const { result, growth } = await measured(async () => {
      const res = await listRoute(
        viewer.request(`http://localhost/api/v1/audits/${auditId}/findings?list=prune&limit=100`),
        { params: Promise.resolve({ id: auditId }) },
      );
      return { status: res.status, text: await res.text() };
    });
    expect(result.status).toBe(200);
    const page = JSON.parse(result.text) as FindingPage;
    expect(page.items.map((f) => f.id)).toEqual(firstIds);
    const big = page.items[0];
    expect(big?.url.endsWith(`… (${BIG + 23} characters in all)`)).toBe(true);
    expect(big?.decidedBy?.length).toBeLessThan(DISPLAY_MAX_CHARS + 40);
    const res = await listRoute(
      viewer.request(`http://localhost/api/v1/audits/${auditId}/findings?list=prune&q=/p/few-`),
      { params: Promise.resolve({ id: auditId }) },
    );
    const few = ((await res.json()) as FindingPage).items;
    expect(few).toHaveLength(3);
    for (const f of few) expect(f.sitemapFile?.url?.endsWith(`… (${BIG + 25} characters in all)`)).toBe(true);
    expect(big?.note?.length).toBeLessThan(DISPLAY_MAX_CHARS + 40);
    // URL, note, reviewer and the redirect target's evidence: each cut, the row a few KB in all.
    expect(JSON.stringify(big).length).toBeLessThan(8 * DISPLAY_MAX_CHARS);
    expect(result.text.length).toBeLessThan(1 * MB);
    // Measured: 4 MB; 103 MB when the reads were not cut.
    expect(growth).toBeLessThan(16 * MB);
  });

  it('pages by URL across a cut URL', async () => {
    const viewer = await testCaller('viewer');
    const { rows } = await pool().query<{ id: number }>(
      `SELECT id FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY url, id LIMIT 12`,
      [auditId],
    );
    const expected = rows.map((r) => r.id);
    expect(expected).toContain(firstIds[0]); // the 5 MB row is among them
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 12 && new Set(seen).size < expected.length; page++) {
      const query = `list=prune&sort=url&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await listRoute(
        viewer.request(`http://localhost/api/v1/audits/${auditId}/findings?${query}`),
        {
          params: Promise.resolve({ id: auditId }),
        },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as FindingPage;
      seen.push(...body.items.map((f) => f.id));
      cursor = encodeURIComponent(body.nextCursor ?? '');
    }
    // Every row once, in URL order, the cut one included (its cursor is the cut text, a few KB).
    expect(seen.slice(0, expected.length)).toEqual(expected);
  });

  it('answers the sitemap files with their URLs cut', async () => {
    const viewer = await testCaller('viewer');
    const res = await sitemapsRoute(viewer.request(`http://localhost/api/v1/audits/${auditId}/sitemaps`), {
      params: Promise.resolve({ id: auditId }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(64 * 1024);
    expect(text).toContain(`… (${BIG + 25} characters in all)`);
  });

  it('keeps its JSONL export exact, a bounded batch at a time', async () => {
    const { streamFindings } = await import('@/lib/review/export/data');
    let first: number | undefined;
    let rows = 0;
    let largestBatch = 0;
    const fileUrls: (number | undefined)[] = [];
    for await (const batch of streamFindings(auditId, { list: 'prune' })) {
      if (first === undefined) first = batch[0]?.url.length;
      rows += batch.length;
      for (const f of batch)
        if (f.sitemapFile?.uploadName === 'few.xml') fileUrls.push(f.sitemapFile.url?.length);
      largestBatch = Math.max(largestBatch, batch.length);
      // A batch is bounded by stored characters as well as rows: megabyte rows come one at a time.
      const chars = batch.reduce(
        (n, f) => n + f.url.length + (f.note?.length ?? 0) + (f.sitemapFile?.url?.length ?? 0),
        0,
      );
      if (batch.length > 1) expect(chars).toBeLessThanOrEqual(8 * MB);
    }
    expect(first).toBe(BIG + 23);
    expect(fileUrls).toEqual([BIG + 25, BIG + 25, BIG + 25]);
    expect(rows).toBe(PRUNE);
    expect(largestBatch).toBeLessThanOrEqual(5000);
  });
});

// The side panel of the review UI, rendered as the browser would render it (a client component).
describe('the review side panel', () => {
  it('links an http(s) URL and shows a javascript: one as text', async () => {
    const { FindingsPanel } = await import('@/app/(app)/audits/[id]/_components/review/findings-panel');
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const viewer = await testCaller('viewer');
    const res = await listRoute(
      viewer.request(`http://localhost/api/v1/audits/${auditId}/findings?list=prune&limit=101`),
      { params: Promise.resolve({ id: auditId }) },
    );
    const items = ((await res.json()) as FindingPage).items;
    const panel = (index: number) =>
      markup(
        createElement(
          QueryClientProvider,
          { client: new QueryClient() },
          createElement(FindingsPanel, {
            auditId,
            finding: items[index] as FindingPage['items'][number],
            onDecide: () => {},
            onClose: () => {},
          }),
        ),
      );
    const js = panel(1);
    expect(js).toContain(JS_URL);
    expect(js).toContain('data-testid="panel-url-text"');
    expect(js).not.toMatch(/href="javascript:/i);
    expect(panel(2)).not.toMatch(/href="data:/i);
    // The cut 5 MB URL leads nowhere it should not: shown, not linked.
    expect(panel(0)).toContain('data-testid="panel-url-text"');
    expect(panel(100)).toMatch(/<a href="https:\/\/bounds\.example\/p\/\d+" target="_blank"/);
  });
});
