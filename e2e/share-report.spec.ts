// End to end: the shared report keeps the reader's place. A stranger opens a share link of an audit with
// three pages of prune rows (two reasons) and a page of rows to add, scrolls to the lists, and changes tab,
// reason filter, search and page: each shows its rows without a reload and window.scrollY stays where it
// was. Then the share panel lists the link, revoked after a confirmation; screenshots of the report and the
// panel at 390 and 1440 px, with no sideways scroll at 390.
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from './screenshots';
import { uploadAudit } from './seed';
import { expectNoSidewaysScroll } from './spot-site';

const S = 'https://keep.example.com';
const UNREACHED = 230;
const GONE = 40;
const ADDED = 120;
// Declared pages the crawl found fine: enough of the sitemap reached (over 20 %) that the crawl is judged
// a crawl of this sitemap's site, so its unreached entries are pruned, not held as a crawl mismatch.
const KEPT = 61;

function sitemap(): string {
  const locs = [
    ...Array.from({ length: UNREACHED }, (_, i) => `${S}/p/${i + 1}`),
    ...Array.from({ length: GONE }, (_, i) => `${S}/p/gone-${i + 1}`),
    ...Array.from({ length: KEPT }, (_, i) => `${S}/p/ok-${i + 1}`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
}

function crawl(): string {
  const at = '2026-11-27T09:00:00Z';
  return [
    ...Array.from({ length: KEPT }, (_, i) => ({ url: `${S}/p/ok-${i + 1}`, status: 200, indexable: true })),
    ...Array.from({ length: GONE }, (_, i) => ({
      url: `${S}/p/gone-${i + 1}`,
      status: 404,
      indexable: false,
    })),
    ...Array.from({ length: ADDED }, (_, i) => ({
      url: `${S}/p/new-${i + 1}`,
      status: 200,
      indexable: true,
    })),
  ]
    .map((row) => JSON.stringify({ crawled_at: at, ...row }))
    .join('\n');
}

/** The page's vertical scroll, once the navigation that changed the URL has rendered `total` rows. */
async function scrollAfter(report: Page, total: number): Promise<number> {
  await expect(report.getByTestId('report-list-total')).toHaveAttribute('data-value', String(total));
  return report.evaluate(() => window.scrollY);
}

/** Scrolls so that `testId` sits near the top of the window, and returns window.scrollY. */
async function scrollTo(report: Page, testId: string): Promise<number> {
  await report
    .getByTestId(testId)
    .first()
    .evaluate((el) => {
      window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80);
    });
  const y = await report.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(300);
  return y;
}

/** A marker on the window: gone after a full reload, kept by client-side navigation. */
async function markWindow(report: Page): Promise<void> {
  await report.evaluate(() => {
    (window as unknown as { __kept: boolean }).__kept = true;
  });
}

async function expectNoReload(report: Page): Promise<void> {
  expect(await report.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
}

/** The audit page's Sharing section (a tab, when the page has section tabs). */
async function openSharing(page: Page): Promise<void> {
  const tabs = page.getByRole('tablist', { name: 'Audit sections' });
  if ((await tabs.count()) > 0) await tabs.getByRole('tab', { name: 'Sharing', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Share a read-only report' })).toBeVisible();
}

test('the shared report keeps the scroll position through tab, filter, search and page changes', async ({
  page,
  browser,
}) => {
  await uploadAudit(page, 'Keep my place', {
    sitemaps: [{ name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(sitemap()) }],
    crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(crawl()) },
  });

  await openSharing(page);
  await page.getByRole('button', { name: 'Create share link' }).click();
  const shareUrl = (await page.getByTestId('share-url').textContent())?.trim() ?? '';
  expect(shareUrl).toMatch(/\/r\/sar_[\w-]{43}$/);

  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const report = await stranger.newPage();
  await report.setViewportSize({ width: 1440, height: 900 });
  expect((await report.goto(shareUrl))?.status()).toBe(200);
  await expect(report.getByTestId('report-list-total')).toHaveAttribute(
    'data-value',
    String(UNREACHED + GONE),
  );
  await markWindow(report);

  // Tab: Prune → Add, from half way down the page.
  let y = await scrollTo(report, 'report-tab-add');
  await report.getByTestId('report-tab-add').click();
  await expect(report).toHaveURL(/\?list=add/);
  expect(await scrollAfter(report, ADDED)).toBe(y);
  await expect(report.getByTestId('report-row')).toHaveCount(100);

  // Back to Prune, then the reason filter.
  await report.getByTestId('report-tab-prune').click();
  expect(await scrollAfter(report, UNREACHED + GONE)).toBe(y);
  y = await scrollTo(report, 'report-reason-filter-http_404');
  await report.getByTestId('report-reason-filter-http_404').click();
  await expect(report).toHaveURL(/reason=http_404/);
  expect(await scrollAfter(report, GONE)).toBe(y);
  await expect(report.getByTestId('report-row')).toHaveCount(GONE);
  await expect(report.getByTestId('report-row').first()).toContainText('HTTP 404');

  // Every reason again, then a search: /p/1 is in /p/1, /p/10…19, /p/100…199 and /p/new-1… (prune only).
  await report.getByTestId('report-reason-filter-all').click();
  y = await scrollAfter(report, UNREACHED + GONE);
  await report.getByLabel('Search URLs').fill('/p/1');
  await report.getByRole('button', { name: 'Search' }).click();
  await expect(report).toHaveURL(/q=%2Fp%2F1/);
  expect(await scrollAfter(report, 111)).toBe(y);
  await expect(report.getByTestId('report-search-clear')).toBeVisible();
  await report.getByTestId('report-search-clear').click();
  expect(await scrollAfter(report, UNREACHED + GONE)).toBe(y);
  await expect(report.getByLabel('Search URLs')).toHaveValue('');

  // The next page, from the pager at the bottom of the list.
  y = await scrollTo(report, 'report-next-page');
  await report.getByTestId('report-next-page').click();
  await expect(report.getByTestId('report-list-total')).toContainText('showing 101–200');
  expect(await report.evaluate(() => window.scrollY)).toBe(y);
  await expectNoReload(report);

  // The report at phone and desktop widths (the first page, the numbers and the list).
  await report.goto(shareUrl);
  for (const width of [390, 1440]) {
    await report.setViewportSize({ width, height: 900 });
    await screenshot(report, `shared-report-${width}`, { fullPage: true });
    if (width === 390) await expectNoSidewaysScroll(report, 'the shared report');
  }

  // A decided row with a note: its card at 390 px lists who decided, when, and the note; the 1440 px table
  // gives the URL its room (it wraps after a separator, never mid-word).
  const auditId = new URL(page.url()).pathname.split('/').pop() ?? '';
  const gone = (await (
    await page.request.get(`/api/v1/audits/${auditId}/findings?list=prune&reason=http_404&limit=1`)
  ).json()) as { items: { id: number }[] };
  const decided = await page.request.post(`/api/v1/audits/${auditId}/decisions`, {
    headers: { origin: new URL(page.url()).origin },
    data: { decision: 'approved', ids: [gone.items[0]?.id], note: 'Gone since the spring redesign' },
  });
  expect(decided.ok()).toBe(true);
  await report.goto(`${shareUrl}?list=prune&reason=http_404`);
  const decidedRow = report.getByTestId('report-row').first();
  for (const width of [390, 1440]) {
    await report.setViewportSize({ width, height: 900 });
    for (const value of ['Approved', 'Gone since the spring redesign', 'UTC'])
      await expect(decidedRow).toContainText(value);
    await expect(decidedRow.locator('td[data-label="Decided"]')).toContainText('Rita Reviewer');
    await expect(decidedRow.locator('td[data-label="Decided"]')).toBeVisible();
    await expect(decidedRow.locator('td[data-label="Note"]')).toBeVisible();
    await screenshot(report, `shared-report-decided-${width}`, { fullPage: true });
  }

  // Revoked after a confirmation, the link is listed as revoked and the report is gone: a page in the
  // report's look says so (the same for a revoked, an expired and a mistyped link), still a 404.
  await page.getByTestId('share-revoke').click();
  await page
    .getByRole('dialog', { name: 'Revoke this share link?' })
    .getByRole('button', { name: 'Revoke link' })
    .click();
  await expect(page.getByTestId('share-row')).toHaveAttribute('data-status', 'revoked');
  expect((await report.goto(shareUrl))?.status()).toBe(404);
  await expect(
    report.getByRole('heading', { level: 1, name: 'This report link does not work' }),
  ).toBeVisible();
  await expect(report.getByTestId('report-gone')).toContainText('revoked, has expired or was mistyped');
  await expect(report.getByTestId('report-gone')).toContainText('Ask the person who sent it for a new link.');
  await expect(report.getByTestId('report-gone')).toContainText('Sitemap Audit');
  await expect(report.getByText('This page could not be found')).toHaveCount(0);
  for (const width of [390, 1440]) {
    await report.setViewportSize({ width, height: 900 });
    await screenshot(report, `report-gone-${width}`, { fullPage: true });
  }
  // A second link, so the panel shows an active one above the revoked one.
  await page.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByTestId('share-row')).toHaveCount(2);
  await expect(page.getByTestId('share-row').first()).toHaveAttribute('data-status', 'active');
  const panel = page.locator('section[aria-labelledby="share-title"]');
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(panel, `share-panel-${width}`);
    // The panel's own content fits it (the audit page around it is another spec's).
    const fits = await panel.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(fits, `the share panel fits at ${width} px`).toBe(true);
  }
  await stranger.close();
});
