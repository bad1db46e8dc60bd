// End to end: what keyboard, phone and read-only users get beyond what e2e/pages-*.spec.ts check on every
// page — the header's menu at phone width, "Skip to review", a viewer's review without controls (and its
// keys sending nothing), a refused decision said in words with the focus left on its row, and a form's
// refused field said under it in a sentence. The audit is built through the API.
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { auth } from './spot-site';

const H = 'https://a11y.example.com';
const CRAWLED_AT = '2026-11-27T09:00:00Z';
const PASSWORD = 'a11y password 1';

let auditUrl = '';
let origin = '';

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: path.join(auth, 'reviewer.json') });
  const page = await context.newPage();
  await page.goto('/account');
  origin = new URL(page.url()).origin;
  const urls = ['/', '/gone-1', '/gone-2', '/gone-3'].map((p) => `${H}${p}`);
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join('')}</urlset>`;
  const crawl = urls
    .map((url, i) =>
      JSON.stringify({ url, status: i === 0 ? 200 : 404, indexable: i === 0, crawled_at: CRAWLED_AT }),
    )
    .join('\n');
  const created = await page.request.post('/api/v1/audits', {
    headers: { origin },
    multipart: {
      name: 'Keyboard audit',
      sitemap: { name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(sitemap) },
      crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(crawl) },
    },
  });
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/audits/${id}`)).json()) as { status: string }).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('succeeded');
  auditUrl = `${origin}/audits/${id}`;
  await context.close();
});

/** A new account of `role` (made by the admin), signed in in its own browser context. */
async function signInAs(browser: Browser, role: 'viewer' | 'reviewer', name: string) {
  const admin = await browser.newContext({ storageState: path.join(auth, 'admin.json') });
  const email = `${role}-a11y-${Date.now()}@e2e.test`;
  const made = await admin.request.post('/api/v1/users', {
    data: { email, name, role, password: PASSWORD },
    headers: { origin },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(name)).toBeVisible();
  return { page, admin, context, id };
}

/** The review, once React has taken over its rows (they are in the server's HTML before that, when keys
 * and clicks do nothing yet). */
async function openReview(page: Page) {
  await page.goto(`${auditUrl}?tab=review`);
  await page.waitForFunction(() => {
    const row = document.querySelector('[data-testid="finding-row"]');
    return row !== null && Object.keys(row).some((key) => key.startsWith('__reactProps'));
  });
}

/** `j` from outside the table focuses its first row. */
async function focusFirstRow(page: Page) {
  const first = page.getByTestId('finding-row').first();
  await page.keyboard.press('j');
  await expect(first).toBeFocused();
  return first;
}

test('at phone width the header is a menu button: expanded state, Escape, links', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Account' })).toBeHidden();

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  for (const name of ['Audits', 'Sites', 'Account', 'New audit'])
    await expect(nav.getByRole('link', { name })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // Escape closes it and gives the focus back to the button.
  await nav.getByRole('link', { name: 'Account' }).focus();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await expect(nav.getByRole('link', { name: 'Account' })).toBeHidden();

  // By keyboard: open, Tab to a link, follow it; the menu closes on the new page.
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Audits' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Sites' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // Wide, the links are in the header and there is no menu button.
  await page.setViewportSize({ width: 1440, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Account' })).toBeVisible();
});

test('Skip to review: two Tab presses and Enter put the focus on the first row; at 360 px the cards keep keys and selection', async ({
  page,
}) => {
  // A phone: the review's rows are cards (stacked), with the same keys.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(auditUrl);
  await expect(page.getByTestId('summary-prune-total')).toHaveText('3');
  // The summary may be drawn on the server: wait for the page's script to have taken over.
  await expect(
    page.locator('[data-ready]', { has: page.getByRole('link', { name: 'Skip to content' }) }),
  ).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to review' })).toBeFocused();
  await page.keyboard.press('Enter');
  const first = page.getByTestId('finding-row').first();
  await expect(first).toBeFocused();
  // The keys act on it from there: move, select (its checkbox follows).
  await page.keyboard.press('j');
  const second = page.getByTestId('finding-row').nth(1);
  await expect(second).toBeFocused();
  await page.keyboard.press('x');
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(second.getByRole('checkbox')).toBeChecked();
  await expect(second).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // Not on other pages.
  await page.goto('/account');
  await expect(page.getByRole('link', { name: 'Skip to review' })).toHaveCount(0);
});

/** The box of `locator`, which must be on the page. */
async function box(locator: ReturnType<Page['locator']>) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found ?? { x: 0, y: 0, width: 0, height: 0 };
}

test('at 390 px the review is cards of one layout: a Sort select, 44 px targets, one focus outline, a tap on a checkbox selects', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openReview(page);
  const rows = page.getByTestId('finding-row');
  await expect(rows).toHaveCount(3);

  // Sorting is one labelled control: no strip of column buttons over the cards.
  await expect(page.getByTestId('sort-url')).toBeHidden();
  await expect(page.getByTestId('sort-depth')).toBeHidden();
  await page.getByLabel('Sort', { exact: true }).selectOption('-url');
  await expect(rows.first()).toContainText(`${H}/gone-3`);
  await page.getByLabel('Sort', { exact: true }).selectOption('id');
  await expect(rows.first()).toContainText(`${H}/gone-1`);

  // Every card names what the desktop row shows, dashes included, and keeps its decision in one place.
  for (const label of ['HTTP', 'Depth', 'Lastmod'])
    await expect(rows.locator(`td[data-label="${label}"]`)).toHaveCount(3);
  const decisions = await Promise.all([0, 1, 2].map((i) => box(rows.nth(i).getByTestId('finding-decision'))));
  const cards = await Promise.all([0, 1, 2].map((i) => box(rows.nth(i))));
  for (const [i, decision] of decisions.entries()) {
    expect(Math.round(decision.x + decision.width)).toBe(
      Math.round((decisions[0]?.x ?? 0) + (decisions[0]?.width ?? 0)),
    );
    expect(Math.round(decision.y - (cards[i]?.y ?? 0))).toBe(
      Math.round((decisions[0]?.y ?? 0) - (cards[0]?.y ?? 0)),
    );
  }

  // 44 px targets: the checkboxes through their labels, the reason's "?", the decisions, the pager.
  const targets = [
    rows.first().locator('label:has(> input[type="checkbox"])'),
    page.locator('th label:has(> input[type="checkbox"])'),
    page.getByRole('button', { name: /^What “.+” means$/ }).first(),
    page.getByRole('button', { name: 'Approve', exact: true }),
    page.getByRole('button', { name: 'Reset', exact: true }),
    page.getByRole('button', { name: 'Next page' }),
  ];
  for (const target of targets) {
    const { width, height } = await box(target);
    expect(Math.min(width, height)).toBeGreaterThanOrEqual(44);
  }

  // A tap on the label beside the box (not the box itself) selects the row and opens nothing.
  await rows.nth(1).locator('label:has(> input[type="checkbox"])').scrollIntoViewIfNeeded();
  const label = await box(rows.nth(1).locator('label:has(> input[type="checkbox"])'));
  await page.mouse.click(label.x + 4, label.y + label.height - 4);
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('finding-panel')).toHaveCount(0);
  // The page's checkbox is named on a card, and selects the page.
  await expect(page.locator('th label:has(> input[type="checkbox"])')).toContainText('All rows on this page');
  await page.locator('th label:has(> input[type="checkbox"])').click();
  await expect(rows.and(page.locator('[aria-selected="true"]'))).toHaveCount(3);
  await page.locator('th label:has(> input[type="checkbox"])').click();
  await expect(rows.and(page.locator('[aria-selected="true"]'))).toHaveCount(0);

  // The focused card has one outline around it, not a line across each of its cells.
  await rows.first().focus();
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toBeFocused();
  const focus = await rows.nth(1).evaluate((row) => ({
    outline: getComputedStyle(row).outlineStyle,
    cells: [...row.querySelectorAll('td')].map((cell) => getComputedStyle(cell).boxShadow),
  }));
  expect(focus.outline).toBe('solid');
  expect(new Set(focus.cells)).toEqual(new Set(['none']));
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('on a touch-only phone the review has no keys hint; a narrow window with a mouse keeps it', async ({
  browser,
  page: desk,
}) => {
  const context = await browser.newContext({
    storageState: path.join(auth, 'reviewer.json'),
    viewport: { width: 390, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await openReview(page);
  await expect(page.locator('#findings-keys-help')).toBeHidden();
  await context.close();
  await desk.setViewportSize({ width: 390, height: 800 });
  await openReview(desk);
  await expect(desk.locator('#findings-keys-help')).toBeVisible();
});

test('a viewer’s review has no checkboxes, bulk bar or decision keys, and its keys send nothing', async ({
  browser,
}) => {
  const { page, admin, context } = await signInAs(browser, 'viewer', 'Vera Viewer');
  await openReview(page);
  const review = page.locator('#findings');
  await expect(review.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Select all matching/ })).toHaveCount(0);
  await expect(page.getByTestId('read-only-note')).toBeVisible();
  await expect(page.locator('#findings-keys-help')).not.toContainText('approve');
  await expect(page.getByRole('grid', { name: 'Findings' })).not.toHaveAttribute('aria-multiselectable');

  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') sent.push(`${request.method()} ${request.url()}`);
  });
  const first = await focusFirstRow(page);
  for (const key of ['a', 'r', 'x']) await page.keyboard.press(key);
  // Keys are handled in order, each at once (no timer): once j and k have moved the focus down and back,
  // a, r and x were handled before them, and a request they started would have been sent by then.
  await page.keyboard.press('j');
  await expect(page.getByTestId('finding-row').nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(first).toBeFocused();
  expect(sent).toEqual([]);
  await expect(first).toHaveAttribute('data-decision', 'pending');
  await expect(first).not.toHaveAttribute('aria-selected');
  await expect(page.getByTestId('decision-error')).toHaveCount(0);

  // The side panel reads the decision: no radio, checkbox, field or button but "Close details" is there
  // to use, and the decision keys still send nothing while it is open.
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('finding-panel');
  await expect(panel.getByTestId('panel-decision-read-only')).toContainText('Pending');
  await expect(panel.getByRole('radio')).toHaveCount(0);
  await expect(panel.locator('input:enabled, select:enabled, textarea:enabled')).toHaveCount(0);
  const buttons = panel.locator('button:enabled, [role="button"]');
  await expect(buttons).toHaveCount(1);
  await expect(buttons).toHaveText('Close details');
  for (const key of ['a', 'r', 'x']) await page.keyboard.press(key);
  // A decision's request would start within the key's handler: one rendered frame later it would be sent.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  expect(sent).toEqual([]);
  await expect(panel.getByTestId('panel-decision-read-only')).toContainText('Pending');
  await context.close();
  await admin.close();
});

test('a refused decision says what happened and what to do, and the focus stays on its row', async ({
  browser,
}) => {
  const { page, admin, context, id } = await signInAs(browser, 'reviewer', 'Remy Reviewer');
  await openReview(page);
  const first = await focusFirstRow(page);
  // The admin makes Remy a viewer while the page still shows a reviewer's controls: the server says 403.
  const demoted = await admin.request.patch(`/api/v1/users/${id}`, {
    data: { role: 'viewer' },
    headers: { origin },
  });
  expect(demoted.ok()).toBe(true);
  await page.keyboard.press('a');
  const error = page.getByTestId('decision-error');
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error).toHaveText(
    'The decision was not saved: your account can only read this audit. Ask an admin for the reviewer role to decide.',
  );
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('data-decision', 'pending');

  // A form's refused field says why under itself, in a sentence with its label.
  await page.goto('/account');
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  const field = page.getByLabel('New password');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#new-password-error')).toHaveText(
    'New password must be at least 10 characters.',
  );
  await expect(field).toHaveAttribute('aria-describedby', 'new-password-hint new-password-error');
  await expect(page.getByText('password: must be')).toHaveCount(0);
  await context.close();
  await admin.close();
});
