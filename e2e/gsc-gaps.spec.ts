// End to end: a reviewer audits dhmguide's real sitemap, a small extra file and a thin
// one, sees the empty state, imports Search Console exports through the section's form (a "Page with redirect"
// drill-down of declared URLs, a Performance Pages.csv, cowboykimono's real overview Chart.csv and a Sitemaps
// report), and reads, after each import and without a reload, the gap table (counts, bands — "Not enough
// data" for the thin file, left out of the bars — the flag of a file Search Console does not list), the
// property's totals and both charts, then the shared report's section; screenshots at 390 and 1440 px.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { fixturesDir } from '../lib/test-support/fixtures';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { uploadAudit } from './seed';
import { expectNoSidewaysScroll } from './spot-site';

const HOST = 'https://www.dhmguide.com';
const dhmXml = readFileSync(path.join(fixturesDir, 'xml/recon-dhmguide-sitemap.xml'), 'utf8');
const dhm = [...new Set([...dhmXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').trim()))];
const extra = Array.from({ length: 10 }, (_, i) => `${HOST}/extra/${i + 1}`);
const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc></url>`)
    .join('')}</urlset>`;
const extraXml = urlset(extra);
/** A file Search Console says next to nothing about: 1 of its 20 URLs had impressions. */
const thin = Array.from({ length: 20 }, (_, i) => `${HOST}/thin/${i + 1}`);
const thinXml = urlset(thin);

type Upload = { name: string; mimeType: string; buffer: Buffer };
const csv = (name: string, text: string): Upload => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
});

/** 20 of dhmguide's and 5 of extra.xml's URLs redirect; 100 more of dhmguide's and 1 of thin.xml's had
 * impressions. */
const imports: Upload[][] = [
  [
    csv(
      'Table.csv',
      `URL,Last crawled\n${[...dhm.slice(0, 20), ...extra.slice(0, 5)].map((u) => `${u},2026-11-20`).join('\n')}\n`,
    ),
    csv('Metadata.csv', 'Property,Value\nSitemap,All known pages\nIssue,Page with redirect\n'),
  ],
  [
    csv(
      'Pages.csv',
      `Top pages,Clicks,Impressions,CTR,Position\n${[...dhm.slice(20, 120), thin[0]]
        .map((u) => `${u},1,10,10%,5.0`)
        .join('\n')}\n`,
    ),
  ],
  [csv('Chart.csv', readFileSync(path.join(fixturesDir, 'gsc/cowboykimono-overview/Chart.csv'), 'utf8'))],
  [
    csv(
      'Sitemaps.csv',
      `Sitemap,Type,Submitted,Last read,Status,Discovered pages,Discovered videos\n${HOST}/sitemap.xml,Sitemap,2025-01-02,${new Date().toISOString().slice(0, 10)},Success,${dhm.length},0\n`,
    ),
  ],
];

/** Imports each set of files through the section's form, as a reviewer does, waiting for each to finish;
 * `after(n)` checks the page once the n-th has (no reload in between). */
async function importAll(page: Page, after: (n: number) => Promise<void>): Promise<void> {
  const section = page.getByTestId('gsc-imports');
  for (const [n, files] of imports.entries()) {
    // The drop zone's file input, by its label.
    await section.getByLabel('Search Console exports', { exact: true }).setInputFiles(files);
    await section.getByTestId('gsc-import-submit').click();
    await expect(section.getByTestId('gsc-import')).toHaveCount(n + 1);
    await expect(section.getByTestId('gsc-import').first().getByTestId('gsc-import-status')).toHaveText(
      /succeeded/i,
      { timeout: 60_000 },
    );
    await after(n);
  }
}

test('Search Console exports become a gap per sitemap file, with bands, flags and charts', async ({
  page,
  browser,
}) => {
  const crawl = JSON.stringify({
    url: `${HOST}/`,
    status: 200,
    indexable: true,
    crawled_at: '2026-11-27T09:00:00Z',
  });
  await uploadAudit(page, 'Search Console gaps', {
    sitemaps: [
      { name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(dhmXml) },
      { name: 'extra.xml', mimeType: 'application/xml', buffer: Buffer.from(extraXml) },
      { name: 'thin.xml', mimeType: 'application/xml', buffer: Buffer.from(thinXml) },
    ],
    crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(crawl) },
  });

  await openAuditTab(page, 'Search Console');
  const section = page.getByTestId('gsc-section');
  // The empty state is said once, by the imports; the gaps appear once there is data.
  await expect(section.getByTestId('gsc-imports-empty')).toContainText(
    'the gap per sitemap file appears below',
  );
  await expect(section.getByTestId('gsc-gaps')).toHaveCount(0);

  const gaps = page.getByTestId('gsc-gaps');
  const rows = gaps.getByTestId('gsc-gap-row');
  // The table follows each import as it ends, without a reload: it appears with the first (the
  // drill-down), and its counts change with the second (the Performance pages: 100 indexed).
  await importAll(page, async (n) => {
    if (n === 0) {
      await expect(rows).toHaveCount(3);
      await expect(rows.nth(0)).toContainText('50 %');
      await expect(rows.nth(1).locator('td[data-label="Indexed"]')).toHaveText('0');
    }
    if (n === 1) await expect(rows.nth(1).locator('td[data-label="Indexed"]')).toHaveText('100');
  });
  await expect(gaps.getByTestId('gsc-property')).toContainText('78 indexed, 737 not indexed');
  // 78 for the property and 100 for sitemap.xml alone come from different exports: said beside them.
  await expect(gaps.getByTestId('gsc-property-source')).toContainText('need not agree');

  await expect(rows).toHaveCount(3);
  // Largest gap first: extra.xml, 5 of 10 redirecting (50 %, problem), not in the Sitemaps report.
  const first = rows.nth(0);
  await expect(first).toContainText('extra.xml');
  await expect(first).toContainText('50 %');
  await expect(first.getByTestId('gsc-band')).toHaveText('Problem');
  await expect(first.getByTestId('gsc-flag')).toHaveText('not in Search Console');
  const second = rows.nth(1);
  await expect(second).toContainText('sitemap.xml');
  await expect(second).toContainText(String(dhm.length));
  await expect(second).toContainText('20 Page with redirect');
  const gap = Math.round((20 / dhm.length) * 100);
  await expect(second).toContainText(`${gap} %`);
  await expect(second.getByTestId('gsc-band')).toHaveText('Investigate');
  await expect(second).toContainText('Success');
  // thin.xml: 1 of 20 known (5 %): "Not enough data", never "Normal", and not drawn as a bar.
  const third = rows.nth(2);
  await expect(third).toContainText('thin.xml');
  await expect(third.getByTestId('gsc-band')).toHaveText('Not enough data');
  await expect(third.getByTestId('gsc-gap-known')).toHaveText('only 1 of 20 known');
  await expect(gaps).toContainText('A file without enough data is not drawn.');

  // The charts draw: a bar per file over the bands, two lines over time.
  const bars = gaps.getByTestId('gsc-gap-chart');
  await expect(bars.locator('.recharts-bar-rectangle')).toHaveCount(2);
  await expect(bars.locator('.recharts-reference-area')).toHaveCount(2);
  const lines = gaps.getByTestId('gsc-index-chart');
  await expect(lines.locator('.recharts-line-curve')).toHaveCount(2);
  // Their text alternatives.
  await expect(bars.locator('table.visually-hidden tr')).toHaveCount(3);
  await expect(lines.locator('table.visually-hidden')).toContainText('737');

  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await gaps.scrollIntoViewIfNeeded();
    await screenshot(gaps, `gsc-gaps-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, 'the Search Console gaps');
  }

  // The shared report shows the same table, its bars and the chart, server-rendered.
  await page.setViewportSize({ width: 1366, height: 900 });
  await openAuditTab(page, 'Sharing');
  await page.getByRole('button', { name: 'Create share link' }).click();
  const shareUrl = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const report = await stranger.newPage();
  expect((await report.goto(shareUrl))?.status()).toBe(200);
  const shared = report.getByTestId('report-gsc');
  await expect(shared.getByTestId('report-gsc-row')).toHaveCount(3);
  await expect(shared.getByTestId('report-gsc-row').last()).toContainText('Not enough data');
  await expect(shared.getByTestId('report-gsc-row').first()).toContainText('extra.xml');
  await expect(shared.getByTestId('report-gsc-bar')).toHaveCount(2);
  await expect(shared.locator('svg polyline')).toHaveCount(2);
  await expect(shared.getByTestId('report-gsc-property')).toContainText('737');
  await expect(shared.getByTestId('report-gsc-property')).toContainText('need not agree');
  // The line chart has a scale (0 to 800 for 737) and its first and last dates.
  await expect(shared.getByTestId('report-gsc-index-y').locator('span')).toHaveText([
    '0',
    '200',
    '400',
    '600',
    '800',
  ]);
  await expect(shared.getByTestId('report-gsc-index-x').locator('span').last()).toHaveText('2025-10-17');
  for (const width of [390, 1440]) {
    await report.setViewportSize({ width, height: 900 });
    await screenshot(shared, `gsc-gaps-report-${width}`);
    if (width === 390) await expectNoSidewaysScroll(report, 'the report');
  }
  await stranger.close();
});
