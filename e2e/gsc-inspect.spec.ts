// End to end: an admin gives an audit of the fixture's spot site a service-account key (the fixture server's
// fake Google made it and trusts it), then URL Inspection runs from the Search Console section: a small run
// finishes with each URL's verdict, coverage and canonicals; a larger one spends the day's quota
// (GSC_INSPECTION_DAILY_QUOTA is 4 in playwright.config.ts) and waits for the next day; Cancel ends it; a
// property whose quota Google says is spent (429 RESOURCE_EXHAUSTED) waits at once, saying why.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { auditSpotSite, auth, expectNoSidewaysScroll } from './spot-site';

test.use({ storageState: path.join(auth, 'admin.json') });

const fixturePort = Number(process.env.FIXTURE_PORT ?? 3218);
const google = `http://127.0.0.1:${Number(process.env.GSC_FAKE_PORT ?? fixturePort + 2)}`;

async function shoot(page: Page, name: string) {
  // The pointer stays where the last click was: off the page, so no button is shot in its hover colours.
  await page.mouse.move(0, 0);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page.getByTestId('gsc-inspections'), `gsc-inspect-${name}-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('URL Inspection: set the key, inspect a sample, wait for the next day’s quota, cancel', async ({
  page,
}) => {
  await auditSpotSite(page, 'URL inspection site');
  await openAuditTab(page, 'Search Console');
  const section = page.getByTestId('gsc-inspections');
  await expect(section.getByRole('heading', { name: 'URL Inspection' })).toBeVisible();
  await shoot(page, 'no-key');

  // The quota is counted per property and day: a property of its own for every run of this spec.
  const property = `sc-domain:e2e-${Date.now()}.example`;
  const key = await (await page.request.get(`${google}/service-account.json`)).body();
  await section.getByLabel('Property').fill(property);
  await section
    .getByLabel('Service-account key (JSON)')
    .setInputFiles({ name: 'key.json', mimeType: 'application/json', buffer: key });
  await section.getByRole('button', { name: 'Save key' }).click();
  const shown = section.getByTestId('gsc-key');
  await expect(shown).toContainText(property);
  await expect(shown).toContainText('e2e-inspector@e2e-project.iam.gserviceaccount.com');
  // Only the property and the email come back.
  expect(await page.content()).not.toContain('PRIVATE KEY');

  await section.getByLabel('URLs to inspect').fill('2');
  await section.getByRole('button', { name: 'Inspect URLs' }).click();
  const runs = section.getByTestId('gsc-run');
  await expect(runs).toHaveCount(1);
  await expect(runs.first().getByTestId('gsc-run-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  const items = section.getByTestId('gsc-item');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(/Indexed|Not indexed/);
  // Google's verdict in words, not the API's code.
  await expect(items.getByTestId('gsc-item-verdict').first()).toHaveText(/· Google: (valid|excluded|error)$/);
  await expect(section.getByTestId('gsc-items')).not.toContainText(/\((PASS|NEUTRAL|FAIL)\)/);
  await expect(runs.first()).toContainText(/\d indexed, \d not indexed/);
  await shoot(page, 'done');

  // Two calls of the day's four are left: the run inspects two URLs, then waits for the next Pacific day.
  await section.getByLabel('URLs to inspect').fill('4');
  await section.getByRole('button', { name: 'Inspect URLs' }).click();
  await expect(runs).toHaveCount(2);
  const waiting = runs.first();
  await expect(waiting.getByTestId('gsc-run-waiting')).toContainText(
    /Waiting for the next day's quota until .* 2 of 4 inspected so far/,
    { timeout: 60_000 },
  );
  await expect(waiting.getByTestId('gsc-run-status')).toHaveText(/running/i);
  await expect(items).toHaveCount(2);
  await shoot(page, 'waiting');

  await waiting.getByTestId('gsc-run-cancel').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel inspection' }).click();
  await expect(waiting.getByTestId('gsc-run-status')).toHaveText(/cancelled/i);
  await expect(waiting.getByTestId('gsc-run-waiting')).toHaveCount(0);
  // What it inspected before the wait stays.
  await expect(items).toHaveCount(2);

  // Google's own quota answer (429 RESOURCE_EXHAUSTED, for a property another tool spent): the run stops
  // calling at once, keeps what it has and says why it waits.
  await section.getByRole('button', { name: 'Replace key' }).click();
  await section.getByLabel('Property').fill(`sc-domain:quota-e2e-${Date.now()}.example`);
  await section
    .getByLabel('Service-account key (JSON)')
    .setInputFiles({ name: 'key.json', mimeType: 'application/json', buffer: key });
  await section.getByRole('button', { name: 'Save key' }).click();
  await expect(shown).toContainText('quota-e2e-');
  await section.getByLabel('URLs to inspect').fill('2');
  await section.getByRole('button', { name: 'Inspect URLs' }).click();
  await expect(runs).toHaveCount(3);
  const stopped = runs.first();
  await expect(stopped.getByTestId('gsc-run-waiting')).toContainText(
    /Waiting for the next day's quota until .* 0 of 2 inspected so far, kept/,
    { timeout: 60_000 },
  );
  await expect(stopped.getByTestId('gsc-run-quota-stop')).toContainText(
    'Google answered 429 RESOURCE_EXHAUSTED',
  );
  await expect(stopped.getByTestId('gsc-run-quota-stop')).toContainText('stopped calling at once');
  await shoot(page, 'quota-stop');
  await stopped.getByTestId('gsc-run-cancel').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel inspection' }).click();
  await expect(stopped.getByTestId('gsc-run-status')).toHaveText(/cancelled/i);
});
