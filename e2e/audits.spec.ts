// End to end: a user creates audits by upload and by URL, watches them ingest, and reads the tree.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { overflowAt } from './fit';
import { screenshot } from './screenshots';

// The fixture corpus beside the clone (../shared/fixtures), or where FIXTURES_DIR says (a worktree elsewhere).
const fixtures =
  process.env.FIXTURES_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures');
const fixture = (relative: string) => path.join(fixtures, relative);
const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;

async function countOf(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).getAttribute('data-value');
}

async function waitForFinal(page: Page, status: RegExp) {
  await expect(page.getByTestId('audit-status')).toHaveText(status, { timeout: 60_000 });
}

test('create an audit by uploading a gzip sitemap tree and a crawl export', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Minisite upload');
  await page
    .getByLabel('Sitemap files')
    .setInputFiles([
      fixture('index/aafeher-minisite/sitemapindex-1.xml.gz'),
      fixture('index/aafeher-minisite/sitemap-01.xml.gz'),
      fixture('index/aafeher-minisite/sitemap-02.xml.gz'),
      fixture('index/aafeher-minisite/sitemap-03.xml.gz'),
    ]);
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page
    .getByLabel('Crawl export file')
    .setInputFiles(fixture('crawl-exports/sf-internal_all-squareone.ca.csv'));
  await page.getByRole('button', { name: 'Create audit' }).click();

  await expect(page).toHaveURL(/\/audits\/[0-9a-f-]{36}$/);
  await waitForFinal(page, /succeeded/i);
  await expect(page.getByTestId('audit-name')).toHaveText('Minisite upload');
  expect(await countOf(page, 'count-files')).toBe('4');
  expect(await countOf(page, 'count-entries')).toBe('6');
  expect(await countOf(page, 'count-unique')).toBe('6');
  expect(await countOf(page, 'count-crawl-rows')).toBe('318');
  await openAuditTab(page, 'Crawl import');
  await expect(page.getByTestId('crawl-format')).toContainText(/screaming frog/i);

  await openAuditTab(page, 'Sitemap files');
  const tree = page.getByRole('tree', { name: 'Sitemap files' });
  await expect(tree.getByTestId('sitemap-file')).toHaveCount(4);
  await expect(tree).toContainText('sitemapindex-1.xml.gz');
  for (const child of ['sitemap-01.xml.gz', 'sitemap-02.xml.gz', 'sitemap-03.xml.gz'])
    await expect(tree).toContainText(child);
  // An upload was never fetched: its HTTP cell is a dash (named for screen readers), not the word "upload".
  const http = tree.getByTestId('sitemap-file').first().locator('[data-label="HTTP"]');
  await expect(http).toHaveText('— uploaded, not fetched');
  await expect(page.getByTestId('tree-summary')).toHaveText('4 files · 0 failed · 0 with problems');
  await screenshot(page, 'audit-upload', { fullPage: true });
});

test('create an audit from a site root URL, discovered through robots.txt', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByLabel('Sitemap URLs').fill(`${fixtureOrigin}/`);
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page
    .getByLabel('Crawl export URL')
    .fill(`${fixtureOrigin}/fixtures/crawl-exports/recon-ayrshire-internal_all.csv`);
  await page.getByRole('button', { name: 'Create audit' }).click();

  await waitForFinal(page, /succeeded/i);
  expect(await countOf(page, 'count-files')).toBe('5');
  expect(await countOf(page, 'count-entries')).toBe('6');
  expect(await countOf(page, 'count-crawl-rows')).toBe('58');
  await openAuditTab(page, 'Sitemap files');
  const tree = page.getByRole('tree', { name: 'Sitemap files' });
  await expect(tree).toContainText(`${fixtureOrigin}/robots.txt`);
  await expect(tree).toContainText('sitemapindex-1.xml');
  await expect(tree.getByTestId('sitemap-file')).toHaveCount(5);
  await screenshot(page, 'audit-url', { fullPage: true });
  // A nested tree of fetched URLs fits a phone.
  expect(await overflowAt(page, [360, 390])).toEqual([]);
  await page.setViewportSize({ width: 390, height: 900 });
  await screenshot(page, 'audit-url-files-390', { fullPage: true });
});

test('a broken file fails alone: the audit ends partial and shows where the XML broke', async ({ page }) => {
  await page.goto('/audits/new');
  await page
    .getByLabel('Sitemap files')
    .setInputFiles([fixture('xml/adv-regular_sitemap.xml'), fixture('malformed/adv-error_sitemap.xml')]);
  await page.getByRole('button', { name: 'Create audit' }).click();

  await waitForFinal(page, /partial/i);
  expect(await countOf(page, 'count-files-failed')).toBe('1');
  expect(await countOf(page, 'count-entries')).toBe('5');
  // No crawl export, so no review: the file tree is the first tab.
  await openAuditTab(page, 'Sitemap files');
  const failed = page.locator('[data-testid="sitemap-file"][data-status="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed.getByTestId('sitemap-file-error')).toContainText(/line \d+/i);
  await expect(page.getByTestId('audit-errors')).toContainText('adv-error_sitemap.xml');
  await screenshot(page, 'audit-partial', { fullPage: true });
  // A failed file's error and its line fit a phone.
  expect(await overflowAt(page, [360, 390])).toEqual([]);
  await page.setViewportSize({ width: 390, height: 900 });
  await screenshot(page, 'audit-partial-files-390', { fullPage: true });
});

test('a sitemap-only audit has Search Console and Hygiene, and reconciles a crawl export added later', async ({
  page,
}) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Sitemap first, crawl later');
  await page.getByLabel('Sitemap files').setInputFiles(fixture('xml/recon-ayrshire-sitemap.xml'));
  await page.getByRole('button', { name: 'Create audit' }).click();
  await waitForFinal(page, /succeeded/i);
  const tabs = page.getByRole('tablist', { name: 'Audit sections' });
  await expect(tabs.getByRole('tab', { name: 'Search Console', exact: true })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Hygiene', exact: true })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Review', exact: true })).toHaveCount(0);
  await openAuditTab(page, 'Search Console');
  await expect(page.getByTestId('gsc-xref-unreconciled')).toBeVisible();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `sitemap-only-gsc-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  await openAuditTab(page, 'Crawl import');
  const form = page.getByTestId('add-crawl-form');
  // The New audit form's crawl fields: a mapped CSV needs its URL column before anything is sent.
  await form.getByLabel('Crawl format').selectOption('csv');
  await form.getByRole('button', { name: 'Add and reconcile' }).click();
  await expect(form.getByText('Choose the crawl export file or enter its URL.')).toBeVisible();
  expect(await overflowAt(page, [360, 390])).toEqual([]);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `add-crawl-${width}`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await form.getByLabel('Crawl format').selectOption('auto');
  await form
    .getByLabel('Crawl export file')
    .setInputFiles(fixture('crawl-exports/recon-ayrshire-internal_all.csv'));
  await form.getByRole('button', { name: 'Add and reconcile' }).click();

  // The audit runs again (the crawl, then the reconciliation) and ends with its review.
  await expect(tabs.getByRole('tab', { name: 'Review', exact: true })).toBeVisible({ timeout: 60_000 });
  await waitForFinal(page, /succeeded|partial/i);
  expect(await countOf(page, 'count-crawl-rows')).toBe('58');
  expect(await countOf(page, 'count-entries')).toBe('79');
  await openAuditTab(page, 'Crawl import');
  await expect(page.getByTestId('crawl-source')).toHaveText('recon-ayrshire-internal_all.csv');
  await expect(page.getByTestId('add-crawl-form')).toHaveCount(0);
  await openAuditTab(page, 'Review');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `add-crawl-reconciled-${width}`, { fullPage: true });
  }
});

test('the form explains what is missing instead of submitting nothing', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByText(/at least one sitemap/i).first()).toBeVisible();
  await expect(page).toHaveURL(/\/audits\/new$/);
  await screenshot(page, 'new-audit-validation', { fullPage: true });
});

test('the audits list shows finished audits with their status', async ({ page }) => {
  // Found by its name: specs running beside this one may have pushed it off the first page since.
  await page.goto(`/?q=${encodeURIComponent('Minisite upload')}`);
  await expect(page.getByRole('link', { name: 'Minisite upload' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Minisite upload' }).first()).toContainText(
    /succeeded/i,
  );
  await page.goto('/');
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await screenshot(page, 'audits-list', { fullPage: true });
  // Every kind of audit the specs made (uploads, a URL, partial, reconciled later) fits a tablet's width.
  expect(await overflowAt(page, [768, 390, 360])).toEqual([]);
  await page.setViewportSize({ width: 768, height: 900 });
  await screenshot(page, 'audits-list-768', { fullPage: true });
});
