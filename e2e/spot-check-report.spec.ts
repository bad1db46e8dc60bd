// End to end: a reviewer spot-checks the fixture's spot-check site (the setup of spot-checks.spec.ts: the
// crawl saw /gone-a and /back answer 404, /moved redirect, /hidden noindex), shares the report, and a
// stranger without an account reads its "Live spot-check" section: the stale-crawl warning (1 of 4), the
// verdict counts and shares, the checked rows with a hop chain, and each list row's verdict.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';

const fixturePort = Number(process.env.FIXTURE_PORT ?? 3218);
const site = `http://127.0.0.1:${Number(process.env.SPOT_SITE_PORT ?? fixturePort + 1)}`;
const shots = path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');

const PATHS = ['/', '/target', '/gone-a', '/back', '/moved', '/hidden'];
const sitemap = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${PATHS.map((p) => `<url><loc>${site}${p}</loc></url>`).join('')}</urlset>`;
const crawledAt = '2026-11-27T09:00:00Z';
const crawl = [
  { url: `${site}/`, status: 200, indexable: true },
  { url: `${site}/target`, status: 200, indexable: true },
  { url: `${site}/gone-a`, status: 404, indexable: false },
  { url: `${site}/back`, status: 404, indexable: false },
  { url: `${site}/moved`, status: 301, indexable: true, redirect_url: `${site}/target` },
  { url: `${site}/hidden`, status: 200, indexable: false },
]
  .map((row) => JSON.stringify({ canonical_url: row.url, crawled_at: crawledAt, ...row }))
  .join('\n');

async function shoot(page: Page) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByTestId('report-spot-check')
      .screenshot({ path: path.join(shots, `spot-check-report-${width}.png`) });
    await page
      .getByTestId('report-table')
      .screenshot({ path: path.join(shots, `spot-check-report-rows-${width}.png`) });
    if (width === 390) {
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(fits, 'no sideways scroll at 390 px').toBe(true);
    }
  }
}

test('the shared report shows the latest spot-check: stale warning, verdicts, shares, hop chains', async ({
  page,
  browser,
}) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Spot-check report');
  await page
    .getByLabel('Sitemap files')
    .setInputFiles({ name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(sitemap) });
  await page
    .getByLabel('Crawl export file')
    .setInputFiles({ name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(crawl) });
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  const panel = page.getByTestId('spot-panel');
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  await expect(panel.getByTestId('spot-run-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  await page.getByRole('button', { name: 'Create share link' }).click();
  const shareUrl = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
  expect(shareUrl).toMatch(/\/r\/sar_[\w-]{43}$/);

  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const report = await stranger.newPage();
  expect((await report.goto(shareUrl))?.status()).toBe(200);
  const section = report.getByTestId('report-spot-check');
  await expect(section.getByRole('heading', { name: 'Live spot-check' })).toBeVisible();
  await expect(section.getByTestId('report-spot-when')).toContainText('4 rows');
  const stale = section.getByTestId('spot-stale');
  await expect(stale).toHaveAttribute('role', 'alert');
  await expect(stale).toContainText('contradicts the crawl for 1 of 4');
  await expect(section.getByTestId('spot-count-contradicted')).toHaveText('1 Contradicted');
  await expect(section.getByTestId('spot-count-confirmed')).toHaveText('3 Confirmed');
  await expect(section.getByTestId('spot-share').first()).toContainText('n = ');
  // Nobody's name: the reviewer who started the run is not shown in the section.
  await expect(section).not.toContainText('Rita Reviewer');

  const items = section.getByTestId('report-spot-item');
  await expect(items).toHaveCount(4);
  await expect(items.filter({ hasText: `${site}/back` })).toHaveAttribute('data-verdict', 'contradicted');
  const moved = items.filter({ hasText: `${site}/moved` });
  await expect(moved).toHaveAttribute('data-verdict', 'confirmed');
  await moved.getByText('301 → 200').click();
  await expect(moved.locator('.spot-hops li')).toHaveCount(2);
  await expect(moved.locator('.spot-hops li').nth(0)).toContainText('Location: /target');

  // The prune list's rows carry their verdict under the reason.
  const back = report.getByTestId('report-table').locator('tr', { hasText: `${site}/back` });
  await expect(back.getByTestId('report-live-verdict')).toHaveAttribute('data-verdict', 'contradicted');
  await shoot(report);
  await stranger.close();
});
