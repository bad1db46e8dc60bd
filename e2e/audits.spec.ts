// End to end: a user creates audits by upload and by URL, watches them ingest, and reads the tree.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';

// The fixture corpus beside the clone (../shared/fixtures), or where FIXTURES_DIR says (a worktree elsewhere).
const fixtures =
  process.env.FIXTURES_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures');
const fixture = (relative: string) => path.join(fixtures, relative);
const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;
const shots = path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');

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
  const http = tree.getByTestId('sitemap-file').first().locator('.tree-cell').first();
  await expect(http).toHaveText('— uploaded, not fetched');
  await expect(page.getByTestId('tree-summary')).toHaveText('4 files · 0 failed · 0 with problems');
  await page.screenshot({ path: path.join(shots, 'audit-upload.png'), fullPage: true });
});

test('create an audit from a site root URL, discovered through robots.txt', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByLabel('Sitemap URLs').fill(`${fixtureOrigin}/`);
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
  await page.screenshot({ path: path.join(shots, 'audit-url.png'), fullPage: true });
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
  await page.screenshot({ path: path.join(shots, 'audit-partial.png'), fullPage: true });
});

test('the form explains what is missing instead of submitting nothing', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByText(/at least one sitemap/i).first()).toBeVisible();
  await expect(page).toHaveURL(/\/audits\/new$/);
  await page.screenshot({ path: path.join(shots, 'new-audit-validation.png'), fullPage: true });
});

test('the audits list shows finished audits with their status', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Minisite upload' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Minisite upload' }).first()).toContainText(
    /succeeded/i,
  );
  await page.screenshot({ path: path.join(shots, 'audits-list.png'), fullPage: true });
});
