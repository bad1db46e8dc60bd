// End to end: decisions on every row matching a filter are confirmed with what they will do, leave decided
// rows alone unless told otherwise, and say what they did; the review filters by sitemap file (from the
// file tree and the per-file chart) and by signal. The audit is made of two generated sitemap files and a
// JSONL crawl, with more prune rows than one page.
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';

const H = 'https://bulk.example.com';
const CRAWLED_AT = '2026-11-27T09:00:00Z';

const PAGES = Array.from({ length: 130 }, (_, i) => `${H}/pages/p-${String(i + 1).padStart(3, '0')}`);
const BLOG = Array.from({ length: 40 }, (_, i) => `${H}/blog/b-${String(i + 1).padStart(2, '0')}`);
/** Declared in both files. */
const SHARED = [`${H}/blog/b-31`, `${H}/blog/b-32`];

function urlset(urls: readonly string[]): Buffer {
  const body = urls.map((url) => `<url><loc>${url}</loc></url>`).join('\n');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`,
  );
}

type CrawlLine = Record<string, string | number | boolean>;

function page200(url: string, extra: CrawlLine = {}): CrawlLine {
  return { url, status: 200, canonical_url: url, indexable: true, crawled_at: CRAWLED_AT, ...extra };
}

/** 130 pages answering 404 (the prune list's first page and more), redirects, a canonical chain, a
 * redirect/canonical conflict, a noindex page, a held 503, and undeclared pages and resources. */
function crawl(): Buffer {
  const lines: CrawlLine[] = [
    page200(`${H}/`, { depth: 0, inlinks: 140 }),
    page200(`${H}/pages`, { depth: 1, inlinks: 131 }),
    page200(`${H}/blog`, { depth: 1, inlinks: 41 }),
    page200(`${H}/about`, { depth: 1, inlinks: 12 }),
    ...PAGES.map((url, i) => ({ url, status: 404, crawled_at: CRAWLED_AT, depth: 2, inlinks: (i % 7) + 1 })),
    ...BLOG.slice(0, 30).map((url) => page200(url, { depth: 2, inlinks: 3 })),
    // Redirects: to a page answering 200, to a 404, and to a page whose canonical points back.
    {
      url: `${H}/blog/b-31`,
      status: 301,
      redirect_url: `${H}/blog/moved-31`,
      crawled_at: CRAWLED_AT,
      depth: 2,
    },
    page200(`${H}/blog/moved-31`, { depth: 3, inlinks: 1 }),
    {
      url: `${H}/blog/b-32`,
      status: 301,
      redirect_url: `${H}/blog/moved-32`,
      crawled_at: CRAWLED_AT,
      depth: 2,
    },
    { url: `${H}/blog/moved-32`, status: 404, crawled_at: CRAWLED_AT, depth: 3 },
    {
      url: `${H}/blog/b-33`,
      status: 301,
      redirect_url: `${H}/blog/b-33-new`,
      crawled_at: CRAWLED_AT,
      depth: 2,
    },
    page200(`${H}/blog/b-33-new`, { canonical_url: `${H}/blog/b-33`, indexable: false, depth: 3 }),
    // A canonical that itself redirects.
    page200(`${H}/blog/b-34`, { canonical_url: `${H}/blog/c-34`, indexable: false, depth: 2, inlinks: 2 }),
    { url: `${H}/blog/c-34`, status: 301, redirect_url: `${H}/blog/c-34-final`, crawled_at: CRAWLED_AT },
    page200(`${H}/blog/c-34-final`, { depth: 3, inlinks: 1 }),
    page200(`${H}/blog/b-35`, { noindex: true, indexable: false, depth: 2, inlinks: 1 }),
    ...BLOG.slice(35, 39).map((url) => page200(url, { depth: 2, inlinks: 2 })),
    { url: `${H}/blog/b-40`, status: 503, crawled_at: CRAWLED_AT, depth: 2 },
    // Undeclared and not pages to add: a resource, a blocked URL and a noindex page.
    page200(`${H}/img/logo.png`, { content_type: 'image/png', depth: 1 }),
    { url: `${H}/private/x`, status: 0, blocked_by_robots: true, crawled_at: CRAWLED_AT, depth: 1 },
    page200(`${H}/blog/hidden`, { noindex: true, indexable: false, depth: 2 }),
  ];
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

async function total(page: Page): Promise<string | null> {
  await expect(page.getByTestId('findings-total')).toHaveAttribute('aria-busy', 'false');
  return page.getByTestId('findings-total').getAttribute('data-value');
}

async function expectTotal(page: Page, value: number) {
  await expect(page.getByTestId('findings-total')).toHaveAttribute('data-value', String(value));
}

/** Elements that make the page scroll sideways (none when the page is as wide as the window), named. */
function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    const clips = (el: Element) =>
      ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const offenders: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= window.innerWidth + 1) continue;
      let parent = el.parentElement;
      while (parent && !clips(parent)) parent = parent.parentElement;
      if (parent && parent !== document.body) continue;
      offenders.push(
        `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (right ${Math.round(box.right)})`,
      );
    }
    return offenders.slice(0, 5);
  });
}

/** Screenshots of the review area at a phone's and a desktop's width; at 390 px nothing scrolls sideways. */
async function shoot(page: Page, name: string, locator = page.locator('#findings')) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => sidewaysOverflow(page)).toEqual([]);
    await screenshot(locator, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.describe.configure({ mode: 'serial' });

let auditUrl = '';

test('create the two-file audit', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Bulk review');
  await page.getByLabel('Sitemap files').setInputFiles([
    { name: 'bulk-pages.xml', mimeType: 'application/xml', buffer: urlset([...PAGES, ...SHARED]) },
    { name: 'bulk-blog.xml', mimeType: 'application/xml', buffer: urlset(BLOG) },
  ]);
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page
    .getByLabel('Crawl export file')
    .setInputFiles({ name: 'bulk-crawl.jsonl', mimeType: 'application/x-ndjson', buffer: crawl() });
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  auditUrl = page.url().replace(/\?.*$/, '');

  // b-33 (redirects to a page canonicalising back) and b-34 (a canonical that redirects) are loops or
  // chains: held as canonical_conflict beside the 503, not pruned.
  await expect(page.getByTestId('summary-prune-total')).toHaveText('133');
  await expect(page.getByTestId('summary-held-total')).toHaveText('3');
  // Every "Not added" bucket is there, with what it means.
  for (const [bucket, n] of [
    ['blocked', 1],
    ['non200', 2],
    ['nonHtml', 1],
    ['canonicalised', 1],
    ['noindex', 1],
  ] as const)
    await expect(page.getByTestId(`add-excluded-${bucket}`)).toHaveAttribute('data-value', String(n));
  await expect(page.getByTestId('add-excluded-nonHtml')).toContainText('Images, CSS, scripts');
  await shoot(page, 'review-not-added', page.getByTestId('add-excluded'));
});

test('a bulk approval by filter leaves a rejected row alone unless told to override', async ({ page }) => {
  await page.goto(auditUrl);
  // The audit opens on the first list with rows.
  await expect(page.getByRole('tab', { name: 'Prune' })).toHaveAttribute('aria-selected', 'true');
  await expectTotal(page, 133);

  // Nothing approved yet: the export says so instead of downloading a header alone.
  await page.getByTestId('export-none').click();
  await expect(page.getByText(/No approved rows in the Prune list yet/)).toBeVisible();

  await page.getByRole('button', { name: /^HTTP 404/ }).click();
  await expectTotal(page, 130);
  // The chips count under the other filters: searching narrows the HTTP 404 chip too.
  await page.getByLabel('Search URLs').fill('p-00');
  await expect(page.locator('[data-testid="reason-chip-count"][data-reason="http_404"]')).toHaveText('9');
  await page.getByLabel('Search URLs').fill('');
  await expect(page.locator('[data-testid="reason-chip-count"][data-reason="http_404"]')).toHaveText('130');
  await expectTotal(page, 130);

  // The chip's "?" explains the reason and its usual fix.
  await page.getByRole('button', { name: 'What “HTTP 404” means' }).click();
  await expect(page.getByTestId('reason-help')).toContainText('Usual fix');

  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(100);
  await expect(rows.first()).toContainText(`${H}/pages/p-001`);
  await page.keyboard.press('j');
  await page.keyboard.press('r');
  await expect(rows.first()).toHaveAttribute('data-decision', 'rejected');
  await expect(page.getByTestId('decision-status')).toHaveText('1 row rejected');

  await page.getByRole('button', { name: 'Select all matching (130)' }).click();
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  // The title counts from the same preview as the button: 129 of the 130 change, the rejected row stays.
  await expect(page.getByRole('dialog', { name: 'Approve 129 of the 130 matching rows?' })).toBeVisible();
  const dialog = page.getByTestId('bulk-dialog');
  await expect(dialog.getByTestId('bulk-preview')).toHaveText(
    '129 pending rows will be approved; 1 rejected row stays rejected.',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shoot(page, 'review-bulk-confirm', dialog);
  await dialog.getByRole('button', { name: 'Approve 129 rows' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('decision-status')).toHaveText(
    '129 rows approved; 1 decided row left as it was',
  );
  await expect(rows.first()).toHaveAttribute('data-decision', 'rejected');
  await expect(rows.nth(1)).toHaveAttribute('data-decision', 'approved');
  await expect(page.getByTestId('summary-prune')).toContainText('129 approved');

  // Again, with the override: the rejected row changes too.
  await page.getByRole('button', { name: 'Select all matching (130)' }).click();
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByTestId('bulk-preview')).toHaveText(
    'Nothing will change; 1 rejected row stays rejected; 129 rows are already approved.',
  );
  await expect(dialog.getByRole('heading')).toHaveText('Approve the 130 matching rows?');
  await expect(dialog.getByTestId('bulk-confirm')).toHaveAttribute('aria-disabled', 'true');
  await dialog.getByLabel('Also change decided rows').check();
  await expect(dialog.getByTestId('bulk-preview')).toHaveText(
    '1 rejected row will be approved; 129 rows are already approved.',
  );
  await expect(dialog.getByRole('heading')).toHaveText('Approve 1 of the 130 matching rows?');
  await dialog.getByRole('button', { name: 'Approve 1 row' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('decision-status')).toHaveText('1 row approved; 129 already approved');
  await expect(rows.first()).toHaveAttribute('data-decision', 'approved');

  // Approving an approved row says so.
  await rows.first().focus();
  await page.keyboard.press('a');
  await expect(page.getByTestId('decision-status')).toHaveText('Already approved');

  // A decision the server refuses says why, and focus stays on the row it was for.
  await page.route('**/decisions', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'The database is busy; try again.' } }),
    }),
  );
  await rows.nth(2).focus();
  await page.keyboard.press('r');
  await expect(page.getByTestId('decision-error')).toHaveText(
    'The decision was not saved: The database is busy; try again.',
  );
  await expect(rows.nth(2)).toBeFocused();
  await expect(rows.nth(2)).toHaveAttribute('data-decision', 'approved');
  await page.unroute('**/decisions');

  // The export now holds the 130 approved rows, in the columns a person applies.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export approved CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe(
    'url,reason,reasons,sitemap_files,status,lastmod,replace_with,target_status,decision,decided_by,decided_at,note',
  );
  expect(csv).toHaveLength(131);
});

test('the review filters by sitemap file from the file tree and the chart, and by signal', async ({
  page,
}) => {
  await page.goto(auditUrl);
  await expectTotal(page, 133);

  await openAuditTab(page, 'Sitemap files');
  const tree = page.getByRole('tree', { name: 'Sitemap files' });
  const blogFile = tree.getByRole('treeitem', { name: /bulk-blog\.xml/ });
  await blogFile.click();
  // Choosing a file filters the review and brings its tab up.
  const reviewTab = page
    .getByRole('tablist', { name: 'Audit sections' })
    .getByRole('tab', { name: 'Review' });
  await expect(reviewTab).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]file=\d+/);
  await expect(page).not.toHaveURL(/[?&]tab=/);
  // b-31, b-32 (redirects) and b-35 (a noindex page): the blog file's prune rows.
  await expectTotal(page, 3);
  const rows = page.getByTestId('finding-row');
  for (const url of await rows.getByTestId('finding-url').locator('.mono').allTextContents())
    expect(url).toMatch(/\/blog\/b-3[125]$/);
  await expect(page.locator('#findings-file option:checked')).toHaveText('bulk-blog.xml');
  // The tree shows the file the review is filtered to; the filter stays while another tab is open.
  await openAuditTab(page, 'Sitemap files');
  await expect(page).toHaveURL(/[?&]file=\d+.*[?&]tab=files/);
  await expect(blogFile).toHaveAttribute('aria-selected', 'true');
  await openAuditTab(page, 'Review');
  await expectTotal(page, 3);
  // The new columns: the redirect target and its status, depth, signals.
  const b32 = rows.filter({ hasText: `${H}/blog/b-32` });
  await expect(b32.getByTestId('finding-target')).toContainText('→ /blog/moved-32 (404)');
  await expect(b32.locator('[data-signal]')).toHaveText('In several sitemap files');
  await shoot(page, 'review-table');

  // Column headers sort, by keyboard too, and the sort is in the URL.
  await page.getByTestId('sort-depth').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]sort=depth/);
  await expect(page.locator('th', { has: page.getByTestId('sort-depth') })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]sort=-depth/);
  await expectTotal(page, 3);

  // The side panel: the reason explained, the target, every declaring file.
  await b32.click();
  const panel = page.getByTestId('finding-panel');
  await expect(panel.getByTestId('reason-explanations')).toContainText('Usual fix');
  await expect(panel.getByTestId('signal-explanations')).toContainText('more than one sitemap file');
  await expect(panel.getByTestId('panel-target')).toContainText(`${H}/blog/moved-32`);
  await expect(panel.getByTestId('panel-files')).toContainText('bulk-pages.xml');
  await expect(panel.getByTestId('panel-files')).toContainText('bulk-blog.xml');
  await shoot(page, 'review-panel', panel);
  await panel.getByRole('button', { name: 'Close details' }).click();

  // A click on the pages file's bar (the largest, first) filters to its rows: 130 pages and b-31, b-32.
  await page.getByTestId('chart-reasons-per-file').locator('.recharts-bar-rectangle').first().click();
  // The chart's tooltip follows the mouse; away from the chart it does not stay open over the page.
  await page.mouse.move(0, 0);
  await expectTotal(page, 132);
  await expect(page.locator('#findings-file option:checked')).toHaveText('bulk-pages.xml');
  await openAuditTab(page, 'Sitemap files');
  await expect(tree.getByRole('treeitem', { name: /bulk-pages\.xml/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // Choosing the selected file again clears the filter (and shows the review).
  await tree.getByRole('treeitem', { name: /bulk-pages\.xml/ }).click();
  await expect(reviewTab).toHaveAttribute('aria-selected', 'true');
  await expectTotal(page, 133);
  expect(await total(page)).toBe('133');

  // A signal warning shows its count and examples, and filters the review.
  const warning = page
    .getByTestId('signal-warnings')
    .getByRole('status')
    .filter({ has: page.locator('[data-code="multi_file"]') });
  await warning.getByText(/Show the/).click();
  await expect(warning.getByTestId('warning-examples')).toContainText(`${H}/blog/b-31`);
  await shoot(page, 'review-signal-warning', page.getByTestId('signal-warnings'));
  await warning.getByRole('button', { name: 'Review only the findings with this signal' }).click();
  await expect(page).toHaveURL(/[?&]signal=multi_file/);
  await expectTotal(page, 2);
});
