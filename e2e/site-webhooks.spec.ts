// End to end: a site's webhook whose receiver refuses every connection is paused at its first failed attempt
// (WEBHOOK_PAUSE_AFTER_FAILURES=1 in the web server), and the Webhooks tab says so (why, since when), holds
// the next run's delivery, and Resume sends what is pending again. Screenshots at 390 and 1440 px
// (test-results/screenshots/site-webhooks-*.png).
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './screenshots';
import { auth, site as spotSite } from './spot-site';

test.use({ storageState: path.join(auth, 'admin.json') });

async function shoot(page: Page, name: string) {
  for (const width of [360, 390, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    if (width === 390 || width === 1440) {
      await screenshot(page, `site-${name}-${width}`, { fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a webhook that keeps failing is paused, shows why, holds the next run, and resumes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const made = await request.post(`${spotSite}/monitor/sites`);
  expect(made.status()).toBe(201);
  const { origin } = (await made.json()) as { origin: string };

  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Webhook site');
  await page.getByLabel('Sitemap URLs').fill(`${origin}/`);
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  await page.getByTestId('audit-site').getByRole('link').click();

  // Nothing listens on port 1: every attempt is refused at once.
  await page.getByTestId('site-tab-webhooks').click();
  await page.getByLabel('URL').fill('http://127.0.0.1:1/hook');
  await page.getByLabel(/Secret/).fill('a webhook secret of some length');
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const webhook = page.getByTestId('webhook');
  await expect(webhook).toHaveCount(1);
  await expect(webhook).toContainText('Nothing sent yet');

  // Two runs: the first's delivery fails and pauses the webhook, the second's is held.
  for (let run = 0; run < 2; run++) {
    await page.getByTestId('site-tab-overview').click();
    const start = page.getByRole('button', { name: 'Start the run' });
    // The panel stays open after a run started; the button toggles it.
    if (!(await start.isVisible())) await page.getByTestId('run-again').click();
    await start.click();
    await expect(page.getByTestId('run-again-started')).toBeVisible();
    await expect(page.getByTestId('site-active-run')).toHaveCount(0, { timeout: 60_000 });
    if (run === 0) {
      await page.getByTestId('site-tab-webhooks').click();
      await expect(webhook.getByTestId('webhook-paused')).toBeVisible({ timeout: 30_000 });
    }
  }
  await page.reload();
  await page.getByTestId('site-tab-webhooks').click();
  const paused = webhook.getByTestId('webhook-paused');
  await expect(paused).toContainText('Paused');
  await expect(paused).toContainText('1 consecutive failed attempt; the last: Could not get a response');
  // The failed one waiting for its retry and the second run's, both held.
  await expect(paused).toContainText('(2 held)');
  await webhook.getByRole('button', { name: 'Show deliveries' }).click();
  const rows = webhook.getByTestId('delivery');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Held');
  await expect(rows.nth(1)).toContainText('Held');
  await expect(rows.first().locator('td[data-label="Attempts"]')).toHaveText('0');
  await shoot(page, 'webhooks-paused');

  await expect(rows.nth(1).locator('td[data-label="Attempts"]')).toHaveText('1');

  // Resume: what is pending is due at once, oldest first; it is refused again, so after that one attempt
  // the webhook is paused again.
  await webhook.getByRole('button', { name: 'Resume' }).click();
  await expect(rows.nth(1).locator('td[data-label="Attempts"]')).toHaveText('2', { timeout: 30_000 });
  await expect(webhook.getByTestId('webhook-paused')).toBeVisible();
});
