// End to end: the audit page's layout. The summary comes with the page's HTML (the
// server reads the first screen's data while it renders), the sections are ARIA tabs whose choice lives in
// the URL beside the review's filters (reload, back and forward keep it), only the selected tab's data is
// asked for, choosing a sitemap file shows the review filtered to it, and a long audit name wraps as words,
// with the header's actions below it on a phone. The request timings of the first screen are logged.
import path from 'node:path';
import { expect, type Page, type Request, test } from '@playwright/test';
import { type AuditTab, openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { auth, expectNoSidewaysScroll } from './spot-site';

test.use({ storageState: path.join(auth, 'admin.json') });

const samples = path.resolve(import.meta.dirname, '..', 'public', 'samples');
// A long name with one long unbroken token, as site audits are often named.
const NAME = 'Quarterly sitemap review for www.a-really-long-hostname-of-an-online-shop.example.com';
const TABS: [AuditTab, string][] = [
  ['Review', 'review'],
  ['Spot-checks', 'spot-checks'],
  ['Search Console', 'search-console'],
  ['Sitemap files', 'files'],
  ['Hygiene', 'hygiene'],
  ['Crawl import', 'crawl'],
  ['Sharing', 'sharing'],
];

const tablist = (page: Page) => page.getByRole('tablist', { name: 'Audit sections' });
const tab = (page: Page, name: AuditTab) => tablist(page).getByRole('tab', { name, exact: true });

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `audit-page-${name}-${width}`, { fullPage: true });
    if (width === 390) await expectNoSidewaysScroll(page, `audit page, ${name}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The API requests the page makes from now on, with their timings (from `since`, ms) once finished. */
function recordRequests(page: Page, since = Date.now()) {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) seen.push(request);
  });
  return {
    paths: () => seen.map((request) => new URL(request.url()).pathname),
    log: async (label: string) => {
      for (const request of seen) {
        const timing = request.timing();
        const url = new URL(request.url());
        console.log(
          `[audit-page] ${label}: ${url.pathname}${url.search} started +${Math.round(timing.startTime - since)} ms, answered in ${Math.round(timing.responseEnd)} ms`,
        );
      }
    },
  };
}

test('the audit page: summary first, sections as tabs in the URL, each fetched when chosen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill(NAME);
  await page.getByLabel('Sitemap files').setInputFiles(path.join(samples, 'sample-sitemap.xml'));
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page.getByLabel('Crawl export file').setInputFiles(path.join(samples, 'sample-crawl.jsonl'));
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  const auditUrl = page.url().replace(/\?.*$/, '');
  const auditPath = new URL(auditUrl).pathname;

  // One round trip: the page's HTML already holds the summary and the review's first page.
  const body = await (await page.request.get(auditUrl)).text();
  expect(body).toContain('data-testid="findings-summary"');
  expect(body).toContain('data-testid="finding-row"');

  // A fresh load: what the first screen asks for after the HTML, and when (logged, not asserted).
  const startedAt = Date.now();
  const requests = recordRequests(page, startedAt);
  const html = (await page.goto(auditUrl))?.request().timing();
  console.log(
    `[audit-page] the page (HTML with the seed): answered in ${Math.round(html?.responseEnd ?? -1)} ms (first byte ${Math.round(html?.responseStart ?? -1)} ms)`,
  );
  await expect(page.getByTestId('summary-prune-total')).toHaveText('6');
  console.log(`[audit-page] summary visible ${Date.now() - startedAt} ms after navigation started`);
  await expect(page.getByTestId('finding-row').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await requests.log('first screen');
  // The audit itself came with the page; the tabs not shown are not read.
  expect(requests.paths()).not.toContain(`/api/v1${auditPath}`);
  expect(requests.paths().some((p) => p.endsWith('/shares'))).toBe(false);
  expect(requests.paths().some((p) => p.includes('/gsc'))).toBe(false);

  // The tabs, in order, the review selected; the panel is labelled by its tab.
  await expect(tablist(page).getByRole('tab')).toHaveText(TABS.map(([name]) => name));
  await expect(tab(page, 'Review')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Review', exact: true })).toBeVisible();
  await shoot(page, 'summary');

  // The name wraps as words: on a phone it takes the line's width, and the actions sit below it.
  await page.setViewportSize({ width: 390, height: 900 });
  const name = page.getByTestId('audit-name');
  const nameBox = await name.boundingBox();
  expect(nameBox?.width ?? 0).toBeGreaterThan(300);
  const actionsBox = await page.locator('.page-header__actions').boundingBox();
  expect(actionsBox?.y ?? 0).toBeGreaterThanOrEqual((nameBox?.y ?? 0) + (nameBox?.height ?? 0));
  await screenshot(page.locator('.page-header'), 'audit-page-header-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page.locator('.page-header'), 'audit-page-header-1440');
  await page.setViewportSize({ width: 1366, height: 900 });

  // Keys: arrows, Home and End move and select; Tab goes on into the panel.
  await tab(page, 'Review').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Spot-checks')).toBeFocused();
  await expect(tab(page, 'Spot-checks')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]tab=spot-checks/);
  await page.keyboard.press('End');
  await expect(tab(page, 'Sharing')).toBeFocused();
  await expect(page.getByTestId('audit-panel')).toHaveAttribute('data-section', 'sharing');
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Review')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await expect(tab(page, 'Review')).toHaveAttribute('aria-selected', 'true');
  await expect(page).not.toHaveURL(/[?&]tab=/);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('audit-panel')).toBeFocused();

  // On a phone the strip is one row that scrolls inside itself (seven tabs wrapped onto three rows); the
  // keys are the same, and the selected tab is scrolled into the strip's view, also when the page opens
  // on it.
  await page.setViewportSize({ width: 390, height: 900 });
  const tops = await tablist(page)
    .getByRole('tab')
    .evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  expect(await tablist(page).evaluate((strip) => strip.scrollWidth > strip.clientWidth)).toBe(true);
  await expectNoSidewaysScroll(page, 'the audit page, tabs in one row');
  const isInStrip = (name: AuditTab) =>
    tab(page, name).evaluate((element) => {
      const own = element.getBoundingClientRect();
      const strip = (element.parentElement as HTMLElement).getBoundingClientRect();
      return own.left >= strip.left - 1 && own.right <= strip.right + 1;
    });
  expect(await isInStrip('Sharing')).toBe(false);
  await tab(page, 'Review').focus();
  await page.keyboard.press('End');
  await expect(tab(page, 'Sharing')).toBeFocused();
  await expect(tab(page, 'Sharing')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => isInStrip('Sharing')).toBe(true);
  await page.reload();
  await expect(tab(page, 'Sharing')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => isInStrip('Sharing')).toBe(true);
  await tab(page, 'Sharing').focus();
  await page.keyboard.press('Home');
  await expect(tab(page, 'Review')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => isInStrip('Review')).toBe(true);
  await page.setViewportSize({ width: 1366, height: 900 });

  // The review's own state stays in the URL beside the tab, and comes back with the Review tab.
  await page.getByRole('tab', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(/[?&]list=add/);
  await openAuditTab(page, 'Crawl import');
  await expect(page).toHaveURL(/[?&]list=add&tab=crawl/);
  await expect(page.getByTestId('crawl-format')).toBeVisible();
  // Reload, back and forward keep the chosen tab.
  await page.reload();
  await expect(tab(page, 'Crawl import')).toHaveAttribute('aria-selected', 'true');
  await openAuditTab(page, 'Sitemap files');
  await page.goBack();
  await expect(tab(page, 'Crawl import')).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(tab(page, 'Sitemap files')).toHaveAttribute('aria-selected', 'true');
  await openAuditTab(page, 'Review');
  await expect(page.getByRole('tab', { name: 'Add', exact: true })).toHaveAttribute('aria-selected', 'true');

  // Only the chosen tab reads its data: the share links are asked for once Sharing is open.
  const later = recordRequests(page);
  await openAuditTab(page, 'Sharing');
  await expect.poll(() => later.paths().some((p) => p.endsWith('/shares'))).toBe(true);

  // Choosing a file in the tree filters the review and shows it.
  await openAuditTab(page, 'Sitemap files');
  await expect(page.getByTestId('tree-summary')).toContainText('1 file');
  await page.getByRole('tree', { name: 'Sitemap files' }).getByRole('treeitem').first().click();
  await expect(tab(page, 'Review')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]file=\d+/);
  await expect(page.getByTestId('findings-total')).toHaveAttribute('data-value', '6');

  // Every tab at both widths.
  for (const [label, id] of TABS) {
    await openAuditTab(page, label);
    await expect(page.getByTestId('audit-panel')).toHaveAttribute('data-section', id);
    await page.waitForLoadState('networkidle');
    await shoot(page, `tab-${id}`);
  }
});

// The server renders the audit page with its first data, but it cannot know the reader's time zone: both it and
// the hydrating browser print UTC (marked), then the browser shows local times. A time printed in the server's
// zone and again in the browser's would be a hydration mismatch, and React would throw the server's HTML away.
test('a reader in another time zone: the page hydrates without a mismatch, then shows local times', async ({
  browser,
}) => {
  const context = await browser.newContext({
    storageState: path.join(auth, 'admin.json'),
    timezoneId: 'Pacific/Kiritimati', // UTC+14: no server or CI machine runs in it
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const list = await page.request.get(`/api/v1/audits?q=${encodeURIComponent(NAME)}`);
  const [audit] = (await list.json()).items as { id: string }[];
  if (!audit) throw new Error('the audit the test above creates is missing');

  const html = await (await page.request.get(`/audits/${audit.id}`)).text();
  expect(html).toMatch(/Created (<!-- -->)?\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
  await page.goto(`/audits/${audit.id}`);
  const created = page.locator('.page-header').getByText(/^Created /);
  await expect(created).toBeVisible();
  await expect(created).not.toContainText('UTC');
  await page.waitForLoadState('networkidle');
  expect(errors.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);
  await context.close();
});
