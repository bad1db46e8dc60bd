// The PDF as a reader sees it: a real audit (two sitemap files, four reasons, decisions, undeclared pages)
// is shared and its PDF rendered by poppler (pdftoppm, pdftotext, pdfinfo: Debian's poppler-utils). The
// pages are checked as text (cover, running header, "Page n of N", each reason's rows in inlinks order,
// the left-out count) and as pixels: the chart area of the summary page holds coloured bars. The pages are
// kept as PNGs in test-results/pdf-report/ to look at.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShare, createUser } from '@/lib/auth/mutations';
import { pool } from '@/lib/db/client';
import { reasonInfo } from '@/lib/findings/reasons';
import { decideByIds } from '@/lib/review/mutations';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { utcDateTime } from './format';
import { buildReportPdf } from './pdf';
import { loadPdfReport, PDF_ROWS_PER_REASON } from './pdf-data';
import { openShare } from './shared';

const S = 'https://pages.example';
const NAME = 'Quarterly sitemap review';
const KEEP = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'pdf-report');

function poppler(tool: string, args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The poppler tools or a clear failure: CI installs them (poppler-utils in .ci/run). */
function requirePoppler(): void {
  for (const tool of ['pdftoppm', 'pdftotext', 'pdfinfo']) {
    try {
      execFileSync(tool, ['-v'], { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${tool} is missing: this test renders the PDF with poppler. Install Debian's poppler-utils (apt-get install poppler-utils).`,
      );
    }
  }
}

/** A binary PPM (P6) as pdftoppm writes it. */
function readPpm(file: string): { width: number; height: number; rgb: Buffer } {
  const data = readFileSync(file);
  const header = data.subarray(0, 32).toString('latin1');
  const match = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(header);
  if (!match) throw new Error(`not a binary PPM: ${file}`);
  return { width: Number(match[1]), height: Number(match[2]), rgb: data.subarray(match[0].length) };
}

/** Pixels in the rectangle (in PDF points, 72 dpi render) that are clearly coloured, not white or grey. */
function colouredPixels(
  ppm: ReturnType<typeof readPpm>,
  box: { x0: number; y0: number; x1: number; y1: number },
) {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(ppm.height, box.y1); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(ppm.width, box.x1); x++) {
      const i = (y * ppm.width + x) * 3;
      const [r, g, b] = [ppm.rgb[i] ?? 255, ppm.rgb[i + 1] ?? 255, ppm.rgb[i + 2] ?? 255];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) n++;
    }
  }
  return n;
}

/** Where a word sits on a page (pdftotext -bbox: points from the top left). */
function wordBox(bbox: string, page: number, word: string): { x: number; y: number } | null {
  const pages = bbox.split('<page ').slice(1);
  const found = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)"[^>]*>${word}</word>`).exec(
    pages[page - 1] ?? '',
  );
  return found ? { x: Number(found[1]), y: Number(found[2]) } : null;
}

let pdfFile = '';
let dir = '';
let pages = 0;
let text: string[] = [];
let generatedAt = new Date(0);
let createdAt = '';
let reportUrl = '';

beforeAll(async () => {
  requirePoppler();
  const at = '2026-11-20T00:00:00Z';
  const unreached = Array.from({ length: 60 }, (_, i) => `${S}/p/old-${i + 1}`);
  const gone = Array.from({ length: 30 }, (_, i) => `${S}/p/gone-${i + 1}`);
  const moved = Array.from({ length: 12 }, (_, i) => `${S}/p/moved-${i + 1}`);
  const auditId = await reconciledAuditOf(NAME, {
    sitemaps: {
      'pages.xml': urlsetXml([...unreached, `${S}/p/ok`]),
      'errors.xml': urlsetXml([...gone, ...moved]),
    },
    crawl: [
      JSON.stringify({ url: `${S}/p/ok`, status: 200, indexable: true, crawled_at: at }),
      // Inlinks rise with the number, so the most-linked 404s are the last declared.
      ...gone.map((url, i) =>
        JSON.stringify({ url, status: 404, indexable: false, inlinks: i + 1, depth: 2, crawled_at: at }),
      ),
      ...moved.map((url) =>
        JSON.stringify({ url, status: 301, redirect_url: `${S}/p/ok`, inlinks: 3, depth: 3, crawled_at: at }),
      ),
      ...Array.from({ length: 25 }, (_, i) =>
        JSON.stringify({
          url: `${S}/p/new-${i + 1}`,
          status: 200,
          indexable: true,
          inlinks: 50 - i,
          depth: 1 + (i % 3),
          crawled_at: at,
        }),
      ),
    ],
  });
  const { rows } = await pool().query<{ id: number }>(
    `SELECT id FROM findings WHERE audit_id = $1 AND url = $2`,
    [auditId, `${S}/p/gone-30`],
  );
  await decideByIds(auditId, [rows[0]?.id ?? 0], { decision: 'approved', by: 'Rita Reviewer', note: null });
  const sharer = await createUser({
    email: `sharer-${randomUUID()}@example.com`,
    name: 'Sam Sharer',
    role: 'reviewer',
    password: 'x'.repeat(12),
  });
  const { token } = await createShare(auditId, sharer.id, null);
  const share = await openShare(token);
  if (!share) throw new Error('share expected');
  // Made a day after the audit, as a reader would download it; from the link the route builds.
  createdAt = share.audit.createdAt;
  generatedAt = new Date(Date.parse(createdAt) + 24 * 3600_000);
  reportUrl = `https://audits.example.org/r/${token}`;
  const pdf = await buildReportPdf(await loadPdfReport(share, generatedAt, reportUrl));
  dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-pages-'));
  pdfFile = path.join(dir, 'report.pdf');
  writeFileSync(pdfFile, pdf);
  pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', [pdfFile]))?.[1]);
  // pdftotext separates pages with a form feed.
  text = poppler('pdftotext', ['-layout', pdfFile, '-']).split('\f');
  // The pages to look at, at a readable size (kept for CI's artifacts and for people).
  rmSync(KEEP, { recursive: true, force: true });
  mkdirSync(KEEP, { recursive: true });
  poppler('pdftoppm', ['-png', '-r', '60', pdfFile, path.join(KEEP, 'page')]);
}, 60_000);

describe('the PDF, rendered', () => {
  it('has a cover with the audit, the site, the date and who shared it, without a page number', () => {
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(pages).toBeLessThan(15);
    const cover = text[0] ?? '';
    expect(cover).toContain(NAME);
    expect(cover).toContain('pages.example');
    expect(cover).toMatch(/Shared by\s+Sam Sharer/);
    expect(generatedAt.getTime()).toBeGreaterThan(Date.parse(createdAt));
    expect(cover).toMatch(new RegExp(`Generated\\s+${utcDateTime(generatedAt.toISOString())}`));
    expect(cover).toMatch(new RegExp(`Audit created\\s+${utcDateTime(createdAt)}`));
    // The link every "the shared link shows them all" points to, printed whole.
    expect(cover.replace(/\s+/g, '')).toContain(reportUrl);
    expect(cover).not.toMatch(/Page \d+ of/);
    expect(readdirSync(KEEP).filter((f) => f.endsWith('.png'))).toHaveLength(pages);
  });

  it('numbers every other page and gives it the running header', () => {
    for (let page = 2; page <= pages; page++) {
      const body = text[page - 1] ?? '';
      expect(body, `page ${page}`).toContain(`Page ${page} of ${pages}`);
      expect(body, `page ${page}`).toContain(`${NAME} · pages.example`);
    }
  });

  it('draws both charts: coloured bars in the chart area of the summary page', () => {
    const page = text.findIndex((t) => t.includes('Reasons per list')) + 1;
    expect(page).toBe(2);
    const bbox = poppler('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), pdfFile, '-']);
    // The first chart's title, the second chart's first file, and the heading after the charts.
    const perList = wordBox(bbox, 1, 'Reasons');
    const perFile = wordBox(bbox, 1, 'pages\\.xml');
    const after = wordBox(bbox, 1, 'Blocked');
    expect(perList && perFile && after).toBeTruthy();
    if (!perList || !perFile || !after) return;
    const base = path.join(dir, 'summary');
    poppler('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-singlefile', pdfFile, base]);
    const ppm = readPpm(`${base}.ppm`);
    // Bars start right of the labels (190 pt in): coloured pixels between each chart's title and the next.
    const listBars = colouredPixels(ppm, { x0: 48 + 180, y0: perList.y + 10, x1: 560, y1: perFile.y - 20 });
    const fileBars = colouredPixels(ppm, { x0: 48 + 140, y0: perFile.y - 2, x1: 560, y1: after.y });
    // Measured: 5,440 and 5,114 (four bars 10 pt high; two stacked ones and the legend).
    expect(listBars).toBeGreaterThan(2000);
    expect(fileBars).toBeGreaterThan(1000);
    // Not vacuous: the cover has no bars at all.
    poppler('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', pdfFile, path.join(dir, 'cover')]);
    expect(colouredPixels(readPpm(path.join(dir, 'cover.ppm')), { x0: 0, y0: 0, x1: 595, y1: 842 })).toBe(0);
  });

  it('gives each reason its definition and its top rows, most-linked first, and counts the rest', () => {
    const all = text.join('\n');
    const gone = reasonInfo('http_404');
    expect(all).toContain('HTTP 404: 30 rows');
    expect(all.replace(/\s+/g, ' ')).toContain(gone.definition);
    // The 404 with the most inlinks first, and its decision with the reviewer's name.
    const goneAt = all.indexOf('HTTP 404: 30 rows');
    const section = all.slice(goneAt, all.indexOf('more rows with this reason', goneAt));
    const urls = [...section.matchAll(/https:\/\/pages\.example\/p\/gone-(\d+)/g)].map((m) => Number(m[1]));
    expect(urls).toEqual(Array.from({ length: PDF_ROWS_PER_REASON }, (_, i) => 30 - i));
    expect(section).toMatch(/gone-30\s+404\s+2\s+30\s+Approved by Rita Reviewer/);
    expect(all).toContain('10 more rows with this reason are not in this PDF: the shared link shows them');
    expect(all).toContain('Not reached by the crawl: 60 rows');
    expect(all).toMatch(/Redirects?.*: 12 rows/);
    expect(all).toContain('Add list: 25 rows');
    // A crawled page's depth is printed where the crawl gave one (the add rows here: 1 to 3).
    expect(all).toMatch(/new-1\s+200\s+1\s+50\s+Pending/);
    expect(all).toMatch(/new-2\s+200\s+2\s+49\s+Pending/);
    expect(all).not.toMatch(/export the CSV/i);
  });
});
