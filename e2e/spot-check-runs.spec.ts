// End to end: a spot-check's runs again and compared. A reviewer audits the fixture's spot-check site (the
// setup of spot-checks.spec.ts, plus /private, which the site's robots.txt disallows), runs a check (one
// error: /private), re-checks the error, runs it again whole, compares the runs, then checks again ignoring
// robots.txt and compares: /private went from "Not checked" to "Dead", no answer → 404. A cancel of a
// running check ends as cancelled. A viewer sees the runs and a comparison but no start/retry/cancel.
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
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
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page.getByTestId('spot-panel'), `spot-check-runs-${name}-panel-${width}`);
    // The comparison alone: the panel at phone width is too tall to read it in.
    await screenshot(page.getByTestId('spot-compare'), `spot-check-runs-${name}-compare-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The runs, newest first, each waited for until it has ended with `status`. */
async function ended(run: Locator, status: RegExp) {
  await expect(run.getByTestId('spot-run-status')).toHaveText(status, { timeout: 60_000 });
}

/** Compares the chosen run with the audit's first run (the last choice: they are listed newest first). */
async function compareWithFirst(panel: Locator) {
  const select = panel.getByLabel('Compare with…');
  const value = await select.locator('option').last().getAttribute('value');
  await select.selectOption(value ?? '');
  return panel.getByTestId('spot-compare');
}

test('run a spot-check again, re-check its errors, compare two runs, cancel one; a viewer only reads', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await auditSpotSite(page, 'Spot-check runs', ['/private']);
  const auditUrl = page.url();
  await openAuditTab(page, 'Spot-checks');

  const panel = page.getByTestId('spot-panel');
  const runs = panel.getByTestId('spot-run');
  await panel.getByLabel('Seed (optional)').fill('7');
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  await expect(runs).toHaveCount(1);
  // /private is disallowed by the site's robots.txt: one row could not be checked.
  await ended(runs.first(), /partial/i);
  const first = runs.first();
  await expect(first.getByTestId('retry-spot-check')).toHaveText('Run again');
  await expect(first.getByTestId('retry-spot-check-errors')).toHaveText('Re-check 1 error');
  // Only one finished run so far: nothing to compare with.
  await expect(panel.getByLabel('Compare with…')).toHaveCount(0);

  // Re-check only the error: a new run of that one row, the old run stays as it was.
  await first.getByTestId('retry-spot-check-errors').click();
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toContainText('1 chosen row');
  // Runs are named by their number: two runs of the same minute read apart.
  await expect(runs.first().locator('.spot-run__select')).toContainText('Run #2');
  await expect(runs.first().getByTestId('spot-run-retry-of')).toContainText('run again from Run #1');
  await ended(runs.first(), /partial/i);
  await expect(panel.getByTestId('spot-item')).toHaveCount(1);
  await expect(runs.nth(1)).toContainText('Sample of 50, seed 7');

  // The first run again, whole: the same seed, so the same rows.
  await runs.nth(1).getByTestId('retry-spot-check').click();
  await expect(runs).toHaveCount(3);
  await expect(runs.first()).toContainText('Sample of 50, seed 7');
  await ended(runs.first(), /partial/i);
  await expect(panel.getByTestId('spot-item')).toHaveCount(5);
  let comparison = await compareWithFirst(panel);
  await expect(comparison.getByTestId('spot-compare-runs')).toContainText(/^From Run #1 \(.+\) to Run #3 /);
  await expect(panel.getByLabel('Compare with…').locator('option').last()).toHaveText(
    /^Run #1 · Sample of 50, seed 7 · /,
  );
  await expect(comparison.getByTestId('spot-compare-same')).toHaveText('5 unchanged');
  await expect(comparison.getByTestId('spot-compare-verdictChanged')).toHaveText('0 verdict changed');
  await expect(comparison).toContainText('No row both runs checked has changed.');

  // A check that ignores robots.txt reaches /private (404: dead); compared with the first run.
  await panel.getByLabel('Ignore robots.txt').check();
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  await expect(runs).toHaveCount(4);
  await ended(runs.first(), /succeeded/i);
  await expect(runs.first().getByTestId('retry-spot-check-errors')).toHaveCount(0);
  comparison = await compareWithFirst(panel);
  await expect(comparison.getByTestId('spot-compare-verdictChanged')).toHaveText('1 verdict changed');
  await expect(comparison.getByTestId('spot-compare-statusChanged')).toHaveText('1 status changed');
  await expect(comparison.getByTestId('spot-compare-same')).toHaveText('4 unchanged');
  const change = comparison.getByTestId('spot-compare-change');
  await expect(change).toHaveCount(1);
  await expect(change).toContainText(`${site}/private`);
  await expect(change.getByTestId('spot-compare-verdict')).toHaveText('Not checked → Dead');
  await expect(change.getByTestId('spot-compare-status')).toHaveText('no answer → 404');
  await expect(comparison.getByTestId('spot-compare-signals')).toContainText('Rot rate');
  await expect(page.locator('.alert--danger')).toHaveCount(0);
  await shoot(page, 'compare');

  // Cancel a running check (/gone-a and /back held until released): it ends as cancelled, and can run again.
  await holdSlowPages(page);
  await panel.getByRole('button', { name: 'Start spot-check' }).click();
  await expect(runs).toHaveCount(5);
  const running = runs.first();
  await running.getByTestId('cancel-spot-check').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel spot-check' }).click();
  await ended(running, /cancelled/i);
  await releaseSlowPages(page);
  // Started and cancelled by the same reviewer: the name is said once.
  await expect(running.getByTestId('run-people')).toHaveText('started and cancelled by Rita Reviewer');
  await expect(running.getByTestId('cancel-spot-check')).toHaveCount(0);
  await expect(running.getByTestId('retry-spot-check')).toBeVisible();
  await expect(running.getByTestId('retry-spot-check-errors')).toHaveCount(0);

  // A viewer: the runs and a comparison, but no start, retry or cancel.
  const admin = await browser.newContext({ storageState: path.join(auth, 'admin.json') });
  const email = `viewer-runs-${Date.now()}@e2e.test`;
  const made = await admin.request.post('/api/v1/users', {
    data: { email, name: 'Val Viewer', role: 'viewer', password: 'viewer password 1' },
    headers: { origin: new URL(auditUrl).origin },
  });
  expect(made.status()).toBe(201);
  await admin.close();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await viewer.goto('/login');
  await viewer.getByLabel('Email').fill(email);
  await viewer.getByLabel('Password').fill('viewer password 1');
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(viewer.getByText('Val Viewer')).toBeVisible();
  await viewer.goto(auditUrl);
  await openAuditTab(viewer, 'Spot-checks');
  const seen = viewer.getByTestId('spot-panel');
  await expect(seen.getByTestId('spot-run')).toHaveCount(5);
  await expect(seen.getByRole('button', { name: 'Start spot-check' })).toHaveCount(0);
  await expect(seen.getByTestId('retry-spot-check')).toHaveCount(0);
  await expect(seen.getByTestId('retry-spot-check-errors')).toHaveCount(0);
  await expect(seen.getByTestId('cancel-spot-check')).toHaveCount(0);
  // The newest finished run (the robots.txt override) against the first one.
  await seen.getByTestId('spot-run').nth(1).locator('.spot-run__select').click();
  const viewed = await compareWithFirst(seen);
  await expect(viewed.getByTestId('spot-compare-verdictChanged')).toHaveText('1 verdict changed');
  await shoot(viewer, 'viewer');
  await context.close();
});
