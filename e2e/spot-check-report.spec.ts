// End to end: a reviewer spot-checks the fixture's spot-check site (the setup of spot-checks.spec.ts: the
// crawl saw /gone-a and /back answer 404, /moved redirect, /hidden noindex), shares the report, and a
// stranger without an account reads its "Live spot-check" section: the stale-crawl warning (1 of 4), the
// verdict counts and shares, the checked rows with a hop chain, and each list row's verdict.
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { auditSpotSite, expectNoSidewaysScroll, site } from './spot-site';

async function shoot(page: Page) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page.getByTestId('report-spot-check'), `spot-check-report-${width}`);
    await screenshot(page.getByTestId('report-table'), `spot-check-report-rows-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, 'the report');
  }
}

test('the shared report shows the latest spot-check: stale warning, verdicts, shares, hop chains', async ({
  page,
  browser,
}) => {
  await auditSpotSite(page, 'Spot-check report');
  await openAuditTab(page, 'Spot-checks');

  const panel = page.getByTestId('spot-panel');
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  await expect(panel.getByTestId('spot-run-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  await openAuditTab(page, 'Sharing');
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
  await expect(moved.getByTestId('spot-hop')).toHaveCount(2);
  await expect(moved.getByTestId('spot-hop').nth(0)).toContainText('Location: /target');

  // The prune list's rows carry their verdict under the reason.
  const back = report.getByTestId('report-table').locator('tr', { hasText: `${site}/back` });
  await expect(back.getByTestId('report-live-verdict')).toHaveAttribute('data-verdict', 'contradicted');
  await shoot(report);
  await stranger.close();
});
