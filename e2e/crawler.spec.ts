// End to end: an audit from a site's URL alone. The New audit form crawls the site (e2e/crawl-site.ts)
// instead of taking a crawl export; the audit shows the crawl running (a page of the site is held until the
// spec has seen it), then its Crawl tab, and its review prunes the 404 the sitemap declares and adds the
// page the sitemap misses. robots.txt's disallowed path is never requested.
// Screenshots at 390 and 1440 px with E2E_SCREENSHOTS=1 (test-results/screenshots/crawler-*.png).
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { overflowAt } from './fit';
import { screenshot, takeScreenshots } from './screenshots';
import { site as spotSite } from './spot-site';

async function shoot(page: Page, name: string) {
  expect(await overflowAt(page, [360, 390, 768, 1440])).toEqual([]);
  if (!takeScreenshots) return;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `crawler-${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('audit a site from its URL alone: crawl it, then prune its 404 and add its unlisted page', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const made = await request.post(`${spotSite}/crawl/sites`);
  expect(made.status()).toBe(201);
  const { origin } = (await made.json()) as { origin: string };

  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Crawled site');
  await page.getByLabel('Sitemap URLs').fill(`${origin}/`);
  await page.getByRole('radio', { name: /^Crawl the site/ }).check();
  // Empty, the crawl starts at the site root of the first sitemap URL, and the field says so.
  await expect(page.getByLabel('Start URL', { exact: true })).toHaveAttribute('placeholder', `${origin}/`);
  await expect(page.getByLabel('Max pages')).toHaveValue('50000');
  await page.getByLabel('Requests at once per host').selectOption('3');
  await shoot(page, 'form');
  await page.getByRole('button', { name: 'Create audit' }).click();

  // /blog/second is held: the crawl is seen running, with its counts.
  const progress = page.getByTestId('audit-progress');
  await expect(progress).toContainText('Crawling the site');
  await expect(page.getByTestId('progress-text')).toContainText(/fetched · \d+ queued/);
  expect((await request.post(`${origin}/__release`)).status()).toBe(204);
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  // The Crawl tab: what it fetched, with what settings, and where (nowhere here) a limit cut it.
  await openAuditTab(page, 'Crawl');
  const report = page.getByTestId('crawler-report');
  await expect(report.getByTestId('crawler-settings')).toContainText('Links followed from the start URL');
  await expect(
    report.getByTestId('crawler-settings').locator('dt:has-text("Requests at once per host") + dd'),
  ).toHaveText('3');
  await expect(report.getByTestId('crawler-totals').locator('[data-status="4xx"]')).toHaveText('1');
  const sections = report.getByTestId('crawler-sections');
  await expect(sections).toContainText('/blog');
  await expect(report.getByTestId('crawler-cut-note')).toContainText('Every section was crawled completely.');
  await shoot(page, 'crawl-tab');

  // Politeness: the disallowed page was never asked for; the held one, once.
  const requested = (await (await request.get(`${origin}/__requests`)).json()) as string[];
  expect(requested.filter((p) => p.startsWith('/private'))).toEqual([]);
  expect(requested.filter((p) => p === '/blog/second')).toHaveLength(1);

  // The review: the declared 404 is pruned, the linked page the sitemap misses is added.
  await openAuditTab(page, 'Review');
  const rows = page.getByTestId('finding-row');
  await page.getByRole('tab', { name: 'Prune' }).click();
  await expect(rows.filter({ hasText: `${origin}/blog/gone` })).toHaveCount(1);
  await page.getByRole('tab', { name: 'Add', exact: true }).click();
  await expect(rows.filter({ hasText: `${origin}/blog/second` })).toHaveCount(1);
});
