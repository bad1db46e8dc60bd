// End to end: a reviewer audits the fixture's spot-check site (a crawl that saw /gone-a and /back answer 404,
// /moved redirect and /hidden noindex), then spot-checks it from the audit page: progress while it runs,
// verdicts (/back answers 200 now: contradicted), a row's hop chain, and the stale-crawl warning (1 of 4).
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import {
  auditSpotSite,
  auth,
  expectNoSidewaysScroll,
  holdSlowPages,
  releaseSlowPages,
  site,
} from './spot-site';

async function shoot(page: Page, name: string) {
  // The pointer stays where the last click was: off the page, so no button is shot in its hover colours.
  await page.mouse.move(0, 0);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `spot-checks-${name}-${width}`, { fullPage: true });
    // The panel alone too: a phone's full page is too tall to read the panel in.
    await screenshot(page.getByTestId('spot-panel'), `spot-checks-${name}-panel-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
}

test('spot-check an audit from its page: progress, verdicts, hop chain and the stale-crawl warning', async ({
  page,
}) => {
  await auditSpotSite(page, 'Spot-check site');
  await openAuditTab(page, 'Spot-checks');

  const panel = page.getByTestId('spot-panel');
  await expect(panel.getByRole('heading', { name: 'Live spot-check' })).toBeVisible();
  await expect(panel.getByLabel('Sample size')).toHaveValue('50');
  // robots.txt is obeyed unless the reviewer ticks the override on purpose.
  await expect(panel.getByLabel('Ignore robots.txt')).not.toBeChecked();
  await expect(panel.getByText('No spot-checks yet.')).toBeVisible();
  await shoot(page, 'form');

  // /gone-a and /back are held until released, so the run is seen running with its count.
  await holdSlowPages(page);
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  const run = panel.getByTestId('spot-run');
  await expect(run).toHaveCount(1);
  await expect(run).toContainText('Rita Reviewer');
  // The run states what it may spend (lib/spot-check/budget.ts defaults).
  await expect(run.getByTestId('spot-run-budget')).toHaveText(
    'Budget: 30 min, 15,000 requests; a host is given up after 3 refused URLs in a row or a Retry-After over 30 s',
  );
  // The count is over the rows the run checks (4), not the rows and the site's soft-404 probe.
  await expect(run.getByTestId('spot-run-progress')).toContainText(/\d+ of 4$/);
  await expect(run.getByRole('progressbar', { name: 'Spot-check progress' })).toBeVisible();
  await expect(run.getByTestId('cancel-spot-check')).toBeVisible();
  // One run at a time: Start is off while this one runs, and says why.
  await expect(panel.getByRole('button', { name: 'Start spot-check' })).toBeDisabled();
  await expect(panel.getByTestId('spot-start-blocked')).toHaveText(
    'Run #1 is still running: wait for it to end or cancel it to start another.',
  );
  await shoot(page, 'running');
  await page.setViewportSize({ width: 1366, height: 900 });
  await releaseSlowPages(page);

  await expect(run.getByTestId('spot-run-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(run.getByTestId('spot-run-progress')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Start spot-check' })).toBeEnabled();
  await expect(run.getByTestId('cancel-spot-check')).toHaveCount(0);

  const stale = panel.getByTestId('spot-stale');
  await expect(stale).toHaveAttribute('role', 'alert');
  await expect(stale).toContainText('contradicts the crawl for 1 of 4');
  await expect(panel.getByTestId('spot-count-contradicted')).toHaveText('1 Contradicted');
  await expect(panel.getByTestId('spot-count-confirmed')).toHaveText('3 Confirmed');
  await expect(panel.getByTestId('spot-share').first()).toContainText('n = ');

  const items = panel.getByTestId('spot-item');
  await expect(items).toHaveCount(4);
  await expect(items.filter({ hasText: `${site}/back` })).toHaveAttribute('data-verdict', 'contradicted');
  await expect(items.filter({ hasText: `${site}/gone-a` })).toHaveAttribute('data-verdict', 'confirmed');
  await expect(items.filter({ hasText: `${site}/hidden` })).toContainText('Yes');

  // The redirect's hop chain, in order, opened by keyboard.
  const moved = items.filter({ hasText: `${site}/moved` });
  await expect(moved).toHaveAttribute('data-verdict', 'confirmed');
  await moved.getByText('2 responses').focus();
  await page.keyboard.press('Enter');
  const hops = moved.getByTestId('spot-hop');
  await expect(hops).toHaveCount(2);
  await expect(hops.nth(0)).toContainText(`301 ${site}/moved`);
  await expect(hops.nth(0)).toContainText('Location: /target');
  await expect(hops.nth(1)).toContainText(`200 ${site}/target`);
  await expect(page.locator('.alert--danger')).toHaveCount(0);
  await shoot(page, 'results');
});

async function shootReview(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `spot-checks-${name}-${width}`, { fullPage: true });
    const side = page.getByTestId('finding-panel');
    const hasSide = (await side.count()) > 0;
    // The side panel covers the review: then the panel alone, else the review and its bulk bar.
    if (hasSide) await screenshot(side, `spot-checks-${name}-side-${width}`);
    else {
      await screenshot(page.locator('#findings'), `spot-checks-${name}-review-${width}`);
      await screenshot(page.getByTestId('bulk-bar'), `spot-checks-${name}-bulk-${width}`);
    }
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('the review shows each row’s live verdict and its hop chain, guards unreached rows, and approves all confirmed', async ({
  page,
  browser,
}) => {
  // One more declared page the crawl never reached: /gone-b, which the live site answers 404 (dead).
  await auditSpotSite(page, 'Spot-check review', ['/gone-b']);

  const rows = page.getByTestId('finding-row');
  const row = (p: string) => rows.filter({ has: page.getByText(`${site}${p}`, { exact: true }) });
  await expect(rows).toHaveCount(5);
  // Nothing checked yet: no Live column (it would be dashes only), no "approve all confirmed".
  await expect(page.getByRole('columnheader', { name: 'Live' })).toHaveCount(0);
  await expect(page.getByTestId('finding-live')).toHaveCount(0);
  await expect(page.getByTestId('approve-confirmed')).toHaveCount(0);

  // An admin requires a confirming spot-check before unreached rows are approved.
  const adminContext = await browser.newContext({ storageState: path.join(auth, 'admin.json') });
  const admin = await adminContext.newPage();
  await admin.goto(page.url());
  const toggle = admin.getByTestId('spot-check-rule-toggle');
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeEnabled();
  for (const width of [390, 1440]) {
    await admin.setViewportSize({ width, height: 900 });
    await screenshot(admin.locator('.page-header'), `spot-checks-rule-header-${width}`);
  }
  await adminContext.close();

  // The reviewer sees the rule, and approving the unchecked unreached row is off, with the reason.
  await page.reload();
  await expect(page.getByTestId('spot-check-rule')).toContainText('need a confirming spot-check');
  await row('/gone-b').click();
  const side = page.getByTestId('finding-panel');
  await expect(side.getByTestId('panel-live')).toContainText('No finished spot-check');
  await expect(side.getByRole('radio', { name: 'Approved' })).toBeDisabled();
  await expect(side.getByTestId('panel-approve-blocked')).toContainText('spot-check this row first');
  await shootReview(page, 'guarded');
  // The keys say so too, instead of approving.
  await row('/gone-b').focus();
  await page.keyboard.press('a');
  // The side panel is open: the refusal is said there, beside the decision it refused.
  await expect(side.getByTestId('panel-decision-error')).toContainText('Not approved');
  await expect(row('/gone-b')).toHaveAttribute('data-decision', 'pending');
  await side.getByRole('button', { name: 'Close details' }).click();

  // Spot-check the current filter from the review (every row of the prune list, not a sample); the finished
  // run's verdicts reach the review without a reload.
  const spotFilter = page.getByTestId('spot-check-filter');
  await expect(spotFilter).toHaveText('Spot-check this filter (5)');
  await expect(page.getByTestId('spot-check-selected')).toHaveAttribute('aria-disabled', 'true');
  await spotFilter.click();
  await expect(page.getByTestId('review-spot-status')).toContainText('Run #1 started on 5 rows');

  await expect(page.getByRole('columnheader', { name: 'Live' })).toBeVisible();
  await expect(row('/back').getByTestId('finding-live')).toHaveAttribute('data-verdict', 'contradicted');
  await expect(row('/gone-a').getByTestId('finding-live')).toHaveAttribute('data-verdict', 'confirmed');
  await expect(row('/gone-b').getByTestId('finding-live')).toHaveAttribute('data-verdict', 'dead');
  await expect(row('/moved').getByTestId('finding-live')).toContainText('Confirmed');
  // The refusal of before is out of date now that the row is checked.
  await expect(page.getByTestId('decision-error')).toHaveCount(0);
  await expect(page.getByTestId('panel-decision-error')).toHaveCount(0);

  // The verdict filter.
  await page.getByLabel('Live check').selectOption('contradicted');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${site}/back`);
  await expect(page.getByTestId('approve-confirmed')).toHaveCount(0);
  await page.getByLabel('Live check').selectOption('');
  await expect(rows).toHaveCount(5);

  // The side panel: the verdict, and the redirect's chain in order with its Location.
  await row('/moved').click();
  await expect(side.getByTestId('panel-live-verdict')).toHaveAttribute('data-verdict', 'confirmed');
  const hops = side.getByTestId('panel-live-chain').locator('li');
  await expect(hops).toHaveCount(2);
  await expect(hops.nth(0)).toContainText(`301 ${site}/moved`);
  await expect(hops.nth(0)).toContainText('Location: /target');
  await expect(hops.nth(1)).toContainText(`200 ${site}/target`);
  await shootReview(page, 'chain');
  await side.getByRole('button', { name: 'Close details' }).click();
  await shootReview(page, 'verdicts');

  // Approve all confirmed: the three confirmed rows and the dead one, through the confirmation; the
  // contradicted one stays pending.
  const approveAll = page.getByTestId('approve-confirmed');
  await expect(approveAll).toHaveText('Approve 4 confirmed or dead rows');
  await approveAll.click();
  const dialog = page.getByRole('dialog', { name: 'Approve all 4 confirmed or dead rows?' });
  await expect(dialog.getByTestId('bulk-preview')).toContainText('4');
  await dialog.getByTestId('bulk-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('decision-status')).toContainText('4 rows approved');
  await expect(page.locator('[data-testid="finding-row"][data-decision="approved"]')).toHaveCount(4);
  await expect(row('/back')).toHaveAttribute('data-decision', 'pending');
  await expect(approveAll).toHaveCount(0);
  await shootReview(page, 'approved');

  // Spot-check the selected row again, then follow the run on the Spot-checks tab: its request is that row.
  await row('/back')
    .getByRole('checkbox', { name: `Select ${site}/back` })
    .check();
  const spotSelected = page.getByTestId('spot-check-selected');
  await expect(spotSelected).toHaveText('Spot-check selected (1)');
  await spotSelected.click();
  const started = page.getByTestId('review-spot-status');
  await expect(started).toContainText('Run #2 started on 1 row');
  await shootReview(page, 'spot-selected');
  await started.getByRole('link', { name: 'Follow it on the Spot-checks tab' }).click();
  const panel = page.getByTestId('spot-panel');
  await expect(panel.getByTestId('spot-run')).toHaveCount(2);
  await expect(panel.getByTestId('spot-run').first()).toContainText('1 chosen row');
  await expect(panel.getByTestId('spot-run-status').first()).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(panel.getByTestId('spot-item')).toHaveCount(1);
});
