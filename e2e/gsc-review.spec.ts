// End to end: Search Console in the review. A reviewer audits the fixture's spot-check
// site (a crawl that saw /gone-a and /back answer 404, /moved redirect, /hidden noindex), imports through
// the API a "Not found (404)" drilldown naming /gone-a, /back and /target (which we do not flag) and a
// Performance pages table where /moved had impressions, then reads the Search Console column (with
// "prune with care" on /moved), filters the review by it, opens a row's Search Console section and follows
// a count of the cross-reference table into the review.
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { auditSpotSite, expectNoSidewaysScroll, site } from './spot-site';

const csv = (name: string, text: string) => ({ name, type: 'text/csv', text });

/** Imports the files through the API and waits for the import run to succeed. */
async function importGsc(page: Page, auditId: string, files: { name: string; type: string; text: string }[]) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.text], { type: f.type }), f.name);
  const origin = new URL(page.url()).origin;
  const started = await page.request.post(`/api/v1/audits/${auditId}/gsc`, {
    headers: { origin },
    multipart: form,
  });
  expect(started.status(), await started.text()).toBe(202);
  const { importId } = await started.json();
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/v1/audits/${auditId}/gsc/imports/${importId}`)).json()).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('succeeded');
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const side = page.getByTestId('finding-panel');
    if ((await side.count()) > 0) {
      await screenshot(side, `gsc-review-${name}-side-${width}`);
    } else {
      await screenshot(page.locator('#findings'), `gsc-review-${name}-${width}`);
    }
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('Search Console in the review: the column, prune with care, the filter, the panel and the cross-reference', async ({
  page,
}) => {
  await auditSpotSite(page, 'Search Console review');
  const auditId = new URL(page.url()).pathname.split('/').pop() as string;
  await importGsc(page, auditId, [
    csv(
      'Table.csv',
      `URL,Last crawled\n${site}/gone-a,2026-11-20\n${site}/back,2026-11-21\n${site}/target,2026-11-22\n`,
    ),
    csv('Metadata.csv', 'Property,Value\nIssue,Not found (404)\nSitemap,All known pages\n'),
    csv('Pages.csv', `Top pages,Clicks,Impressions,CTR,Position\n${site}/moved,3,120,2.5%,8.1\n`),
  ]);
  await page.reload();

  const rows = page.getByTestId('finding-row');
  const row = (p: string) => rows.filter({ has: page.getByText(`${site}${p}`, { exact: true }) });
  await expect(rows).toHaveCount(4);
  await expect(page.getByRole('columnheader', { name: 'Search Console' })).toBeVisible();
  await expect(row('/gone-a').getByTestId('finding-gsc')).toHaveText('Not indexed: 404');
  await expect(row('/back').getByTestId('finding-gsc')).toHaveText('Not indexed: 404');
  await expect(row('/moved').getByTestId('gsc-prune-with-care')).toHaveText('Indexed — prune with care');
  await expect(row('/hidden').getByTestId('finding-gsc')).toHaveText('—');

  // The cross-reference (the Search Console tab): Google's 404s are ours for two, and one (/target) we do
  // not flag.
  await openAuditTab(page, 'Search Console');
  const xref = page.getByTestId('gsc-cross-reference');
  const notFound = xref.locator('[data-testid="gsc-xref-row"][data-bucket="http_404"]');
  await expect(notFound.locator('td')).toHaveText(['3', '3', '2', '0', '0', '1']);
  await expect(xref.getByTestId('gsc-xref-care')).toHaveText('1');
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(xref, `gsc-review-cross-reference-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, 'cross-reference');
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await openAuditTab(page, 'Review');
  await shoot(page, 'column');

  // Prune with care: the prune list filtered to what Google has indexed.
  await page.locator('#findings-gsc').selectOption('indexed');
  await expect(rows).toHaveCount(1);
  await expect(row('/moved')).toHaveCount(1);
  await expect(page).toHaveURL(/gsc=indexed/);
  await shoot(page, 'filtered');
  await page.locator('#findings-gsc').selectOption('');
  await expect(rows).toHaveCount(4);

  // The side panel's Search Console section.
  await row('/gone-a').click();
  const side = page.getByTestId('finding-panel');
  const section = side.getByTestId('panel-gsc');
  await expect(section.getByTestId('panel-gsc-reason')).toHaveText('Not found (404)');
  await expect(section.getByTestId('panel-gsc-agreement')).toHaveText("Google's reason agrees with ours.");
  await expect(section).toContainText('last crawled 2026-11-20');
  await expect(section.getByTestId('panel-gsc-source')).toContainText(
    'From a page-indexing export (All known pages), imported',
  );
  await shoot(page, 'panel');
  await side.getByRole('button', { name: 'Close details' }).click();
  await row('/moved').click();
  await expect(side.getByTestId('panel-gsc-agreement')).toContainText('prune with care');
  await side.getByRole('button', { name: 'Close details' }).click();

  // A count of the cross-reference opens the review on exactly those rows.
  await openAuditTab(page, 'Search Console');
  await xref.getByRole('link', { name: '2 pruned for the same reason (404)' }).click();
  await expect(page).toHaveURL(/gsc=http_404&gscMatch=agrees/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('gsc-match-chip')).toHaveText(/Agrees with our reason/);
  await expect(page.locator('.alert--danger')).toHaveCount(0);
});
