// End to end: a reviewer works through the prune list, approves by keyboard and by filter, and
// downloads exactly the approved rows as CSV.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';

const samples = path.resolve(import.meta.dirname, '..', 'public', 'samples');
const S = 'https://shop.example.com';

test('review the prune list, approve by keyboard and by filter, export the approved CSV, share the report', async ({
  page,
  browser,
}) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Sample shop review');
  await page.getByLabel('Sitemap files').setInputFiles(path.join(samples, 'sample-sitemap.xml'));
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page.getByLabel('Crawl export file').setInputFiles(path.join(samples, 'sample-crawl.jsonl'));
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });

  // The summary: six declared URLs the crawl cannot back up, three pages to add.
  await expect(page.getByTestId('summary-prune-total')).toHaveText('6');
  await expect(page.getByTestId('summary-add-total')).toHaveText('3');
  await expect(page.getByTestId('add-excluded')).toContainText('noindex');
  await screenshot(page, 'review-summary', { fullPage: true });

  await page.getByRole('tab', { name: 'Prune' }).click();
  await expect(page.getByTestId('findings-total')).toHaveAttribute('data-value', '6');
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(6);
  // Sitemap order: the first prune row is the 404.
  await expect(rows.first()).toContainText(`${S}/blog/old-news`);

  // Keyboard review: j focuses the first row, a approves it.
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(rows.first()).toHaveAttribute('data-decision', 'approved');

  // Approve by filter: every 410, through "select all matching".
  await page
    .getByRole('button', { name: /HTTP 410/ })
    .first()
    .click();
  await expect(page.getByTestId('findings-total')).toHaveAttribute('data-value', '1');
  await page.getByRole('button', { name: /Select all matching/ }).click();
  await page.getByLabel('Decision note').fill('gone for good');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByTestId('decision-status')).toContainText(/1 row/);
  await expect(rows.first()).toHaveAttribute('data-decision', 'approved');

  // The side panel shows the evidence and the history of the decision.
  await rows.first().click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('evidence-lines')).toContainText('410');
  await expect(page.getByTestId('decision-history')).toContainText('gone for good');
  await screenshot(page, 'review-prune', { fullPage: true });
  await page.getByRole('button', { name: 'Close details' }).click();

  // The export holds exactly the two approved rows.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export approved CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^sample-shop-review-prune-approved-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe(
    'url,reason,reasons,sitemap_files,status,lastmod,replace_with,target_status,decision,decided_by,decided_at,note',
  );
  const body = csv.slice(1).map((line) => line.split(',').slice(0, 2).join(','));
  expect(body.sort()).toEqual([`${S}/blog/old-news,http_404`, `${S}/help/returns,http_410`]);
  expect(csv.find((l) => l.startsWith(`${S}/help/returns`))).toMatch(/,approved,.*,gone for good$/);
  // Decisions carry the signed-in reviewer's name.
  expect(csv.find((l) => l.startsWith(`${S}/help/returns`))).toContain('Rita Reviewer');

  // Share a read-only report and open it where nobody is signed in.
  await openAuditTab(page, 'Sharing');
  await page.getByRole('button', { name: 'Create share link' }).click();
  const shareUrl = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
  // The link is on the address the reviewer used.
  expect(shareUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/r\/sar_[\w-]{43}$/);
  await expect(page.getByTestId('share-row')).toHaveCount(1);
  await expect(page.getByTestId('share-row')).toHaveAttribute('data-status', 'active');
  // Copy puts the link on the clipboard and says so in the live region.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('share-copy').click();
  await expect(page.getByTestId('share-copy-status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
  await screenshot(page.locator('section[aria-labelledby="share-title"]'), 'share-panel');

  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const report = await stranger.newPage();
  const response = await report.goto(shareUrl);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(report.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(report.getByText('Sample shop review').first()).toBeVisible();
  await expect(report.getByText('Rita Reviewer').first()).toBeVisible();
  await expect(report.getByRole('button', { name: /Approve|Reject/ })).toHaveCount(0);
  await expect(report.getByRole('link', { name: 'New audit' })).toHaveCount(0);
  await screenshot(report, 'shared-report', { fullPage: true });
  // Print to PDF with the print stylesheet, and the PDF the report offers for download.
  await report.emulateMedia({ media: 'print' });
  const printed = await report.pdf({ format: 'A4' });
  expect(printed.subarray(0, 5).toString()).toBe('%PDF-');
  await report.emulateMedia({ media: 'screen' });
  const pdfDownload = report.waitForEvent('download');
  await report.getByRole('link', { name: /Download PDF/ }).click();
  const pdf = readFileSync(await (await pdfDownload).path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  // The link opens nothing else: not the app, not the API.
  await report.goto('/');
  await expect(report).toHaveURL(/\/login/);
  expect((await report.request.get('/api/v1/audits')).status()).toBe(401);

  // Revoking asks first; dismissed, the link stays active.
  await page.getByTestId('share-revoke').click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this share link?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('share-row')).toHaveAttribute('data-status', 'active');
  expect((await report.goto(shareUrl))?.status()).toBe(200);
  // Confirmed, the link stops working at once and stays listed as revoked, by whom.
  await page.getByTestId('share-revoke').click();
  await confirm.getByRole('button', { name: 'Revoke link' }).click();
  await expect(page.getByTestId('share-row')).toHaveCount(1);
  await expect(page.getByTestId('share-row')).toHaveAttribute('data-status', 'revoked');
  await expect(page.getByTestId('share-revoked')).toContainText('Rita Reviewer');
  await expect(page.getByTestId('share-revoke')).toHaveCount(0);
  expect((await report.goto(shareUrl))?.status()).toBe(404);
  await stranger.close();
});
