// End to end: a site followed over time. An admin audits a fresh monitored site (e2e/monitor-site.ts)
// by its URL with its crawl export (v1), opens the site from the audit, switches the site to v2 and adds a
// cron schedule; the scheduled run comes at the scheduler's tick (sent now rather than at the next minute:
// e2e/database.ts) and the change feed lists the added URL, the move (the new crawl redirects the removed URL to the added one)
// and the lastmod change; the diff view compares the two runs; Run again starts a third run, and once more at
// once is refused (409) while that one is going; it repeats the crawl export, and its row says so.
// Screenshots at 390 and 1440 px (test-results/screenshots/site-*.png).
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { tickSchedulesNow } from './database';
import { screenshot } from './screenshots';
import { auth, site as spotSite } from './spot-site';

test.use({ storageState: path.join(auth, 'admin.json') });

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    // Two frames: charts measure their box in the first and are drawn at its width by the second.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, `site-${name}-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

const runRows = (page: Page) => page.getByTestId('site-run');

test('a scheduled run of a changed site shows its changes, its diff, and Run again one run at a time', async ({
  page,
  request,
}) => {
  // Three runs of a site and its pages at two widths, on a slow machine.
  test.setTimeout(180_000);
  const made = await request.post(`${spotSite}/monitor/sites`);
  expect(made.status()).toBe(201);
  const { origin } = (await made.json()) as { origin: string };
  const host = new URL(origin).host;

  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Monitored site');
  await page.getByLabel('Sitemap URLs').fill(`${origin}/`);
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page.getByLabel('Crawl export URL').fill(`${origin}/crawl.jsonl`);
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  // The audit names its site; the site page shows its one run, complete.
  await expect(page.getByTestId('audit-site')).toContainText(host);
  await page.getByTestId('audit-site').getByRole('link').click();
  await expect(page.getByTestId('site-name')).toHaveText(host);
  const siteId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await expect(runRows(page)).toHaveCount(1);
  await expect(runRows(page).first().getByTestId('run-complete')).toHaveText('Complete');

  // v2, and a schedule every minute (cron, UTC).
  expect((await request.post(`${origin}/version/2`)).status()).toBe(204);
  await page.getByTestId('site-tab-schedules').click();
  await page.getByLabel('Repeat').selectOption('cron');
  await page.getByLabel(/Cron expression/).fill('* * * * *');
  await page.getByLabel('Time zone').fill('UTC');
  await page.getByRole('button', { name: 'Add schedule' }).click();
  const schedule = page.getByTestId('schedule');
  await expect(schedule).toHaveCount(1);
  await expect(schedule).toContainText('Cron * * * * *');
  await expect(schedule.getByTestId('schedule-next')).not.toHaveText('—');

  // The scheduled run: started by the scheduler's tick, then finished (the page polls while the site has
  // schedules).
  await page.getByTestId('site-tab-overview').click();
  const scheduled = runRows(page).and(page.locator('[data-trigger="schedule"]'));
  await tickSchedulesNow(siteId);
  await expect(scheduled.first()).toBeVisible({ timeout: 30_000 });
  await expect(scheduled.last().getByTestId('run-complete')).toHaveText('Complete', { timeout: 60_000 });
  // No second scheduled run while the rest is checked.
  await page.getByTestId('site-tab-schedules').click();
  await schedule.getByLabel('Enabled').uncheck();
  await expect(schedule).toContainText('Off');
  await expect(schedule.getByTestId('schedule-last')).not.toHaveText('Not yet');

  await page.getByTestId('site-tab-overview').click();
  await expect(page.getByTestId('site-declared-chart')).toBeVisible();
  // The run after v1 reused the unchanged index and static.xml (304s).
  await expect(scheduled.last().getByTestId('run-reused')).not.toHaveText('0');
  await shoot(page, 'overview');

  await page.getByTestId('site-tab-changes').click();
  const feed = page.getByTestId('change-feed');
  await expect(feed.locator('[data-type="url_added"]')).toContainText(`${origin}/page-d`);
  // page-b left the sitemap and the new crawl redirects it to page-d, which the run adds: a move.
  const moved = feed.locator('[data-type="url_moved"]');
  await expect(moved).toContainText(`${origin}/page-b`);
  await expect(moved).toContainText(`now redirects to ${origin}/page-d`);
  await expect(moved).toContainText('Moved');
  const lastmod = feed.locator('[data-type="url_lastmod_changed"]');
  await expect(lastmod).toContainText(`${origin}/page-a`);
  await expect(lastmod).toContainText('2026-11-01 → 2026-11-20');
  await expect(page.getByTestId('change-count-url_added')).toHaveText('1');
  // The type filter is in the URL and narrows the feed.
  await page.getByTestId('change-chip-url_moved').click();
  await expect(page).toHaveURL(/type=url_moved/);
  await expect(feed.getByTestId('change')).toHaveCount(1);
  await shoot(page, 'changes');

  // The diff between the two runs, older → newer.
  await page.getByTestId('site-tab-overview').click();
  await runRows(page).nth(0).getByTestId('compare-run').check();
  await runRows(page).nth(1).getByTestId('compare-run').check();
  await page.getByTestId('compare-runs').click();
  await expect(page).toHaveURL(/\/diff\?from=.+&to=.+/);
  await expect(page.getByTestId('diff-count-url_added')).toHaveText('1');
  await expect(page.getByTestId('diff-count-url_removed')).toHaveText('1');
  await expect(page.getByTestId('diff-count-url_lastmod_changed')).toHaveText('1');
  await expect(page.getByTestId('diff-count-moved')).toHaveText('1');
  // All counts every row: the types' counts added up (here 1 + 1 + 1 + the move, nothing else differs).
  await expect(page.getByTestId('diff-count-all')).toHaveText('4');
  await expect(page.getByTestId('diff-rows').getByTestId('diff-row')).toHaveCount(4);
  // The header names each run once: the scheduled run's name loses the date it repeated.
  const sides = page.getByTestId('diff-sides');
  await expect(sides).toContainText('Monitored site: from the run of');
  await expect(sides).not.toContainText('UTC');
  await page.getByTestId('diff-chip-url_added').click();
  await expect(page.getByTestId('diff-row')).toHaveCount(1);
  await expect(page.getByTestId('diff-row')).toContainText(`${origin}/page-d`);
  await expect(page.getByTestId('diff-row')).toContainText('Only in the newer run');
  await shoot(page, 'diff');

  // Run again: a third run; asked again at once, the site is busy (409) unless that run already finished.
  await page.getByRole('link', { name: '← Back to the site' }).click();
  await page.getByTestId('run-again').click();
  const start = page.getByRole('button', { name: 'Start the run' });
  await start.click();
  await expect(page.getByTestId('run-again-started')).toBeVisible();
  await start.click();
  const refused = page.getByTestId('run-again-error');
  await expect(refused.or(page.getByTestId('run-again-started'))).toBeVisible();
  if (await refused.isVisible()) await expect(refused).toContainText('already going');
  await expect(runRows(page).and(page.locator('[data-trigger="rerun"]')).first()).toBeVisible();
  await expect(page.getByTestId('site-active-run')).toHaveCount(0, { timeout: 60_000 });
  // It fetched the same crawl export again (same bytes): it says so, and confirms nothing across two crawls.
  const rerun = runRows(page).and(page.locator('[data-trigger="rerun"]')).first();
  await expect(rerun.getByTestId('run-crawl-repeated')).toHaveText(
    'Same crawl as the previous run: confirms nothing',
  );
  await expect(scheduled.last().getByTestId('run-crawl-repeated')).toHaveCount(0);
  await shoot(page, 'rerun');

  // Settings are saved on each change, and the page says so.
  await page.getByTestId('site-tab-settings').click();
  const setting = page.getByTestId('require-confirmed-unreached');
  const status = page.getByTestId('site-settings-status');
  await expect(status).toHaveText('');
  // A click, not check(): the box is controlled by the saved site and follows the click a moment later.
  await setting.click();
  await expect(status).toHaveText('Saved');
  await expect(setting).toBeChecked();
  await shoot(page, 'settings');
  await setting.click();
  await expect(setting).not.toBeChecked();
  await expect(status).toHaveText('Saved');

  // The schedule goes; the sites list finds the site by its host.
  await page.getByTestId('site-tab-schedules').click();
  await schedule.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete schedule' }).click();
  await expect(schedule).toHaveCount(0);
  await page.goto(`/sites?q=${encodeURIComponent(host)}`);
  await expect(page.getByTestId('site-row')).toHaveCount(1);
  await expect(page.getByTestId('site-row')).toContainText(host);
});
