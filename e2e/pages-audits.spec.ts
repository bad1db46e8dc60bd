// End to end, half of the sweep of every page and state (e2e/page-sweep.ts says what each is checked for):
// the audits list, a new audit, an audit running, and a finished audit's page (its summary, review, side
// panel, bulk confirmation and other tabs, as a reviewer and as a viewer), and an unknown audit. A new page
// or state is one more row in STATES, here or in e2e/pages-more.spec.ts (whichever file is shorter).
import { expect, type Page, test } from '@playwright/test';
import { type Made, type State, sweep } from './page-sweep';

const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;
const HOLD_KEY = `pages-${Date.now().toString(36)}`;

const rows = (page: Page) => page.getByTestId('finding-row');

/** The URL is what a reviewer reads: at 1440 px its column has room (it once shrank to a few letters a line
 * beside ten fixed columns); in a narrower box each row is a card with the URL across. */
async function expectReadableUrls(page: Page, width: number) {
  const row = page.getByTestId('finding-row').first();
  const display = await row.evaluate((el) => getComputedStyle(el).display);
  if (width < 1440) {
    expect.soft(display, `a card per row at ${width} px`).not.toBe('table-row');
    return;
  }
  expect.soft(display, 'a table at 1440 px').toBe('table-row');
  const cell = await row.getByTestId('finding-url').boundingBox();
  expect.soft(cell?.width ?? 0, 'the URL column at 1440 px, in px').toBeGreaterThanOrEqual(280);
}

/** The audit page with its review shown (?tab=review), once React has taken over its rows (they are in
 * the server's HTML before that, when clicks do nothing yet). */
async function openReview(page: Page, made: Made) {
  await page.goto(`${made.auditUrl}?tab=review`);
  await page.waitForFunction(() => {
    const row = document.querySelector('[data-testid="finding-row"]');
    return row !== null && Object.keys(row).some((key) => key.startsWith('__reactProps'));
  });
}

const STATES: State[] = [
  {
    name: 'audits',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The newest audits of every spec (running beside this one, they may have pushed this spec's own
      // off the first page).
      await expect(page.getByTestId('audit-row').first()).toBeVisible();
    },
    // The list stays inside its card (a table wider than the card ran out of it at 768 px, short of the
    // page's edge, so the page itself did not scroll).
    check: async (page, width) => {
      const list = page.getByRole('table', { name: 'Audits, newest first' });
      const table = (await list.boundingBox())?.width ?? 0;
      const card = (await list.locator('xpath=..').boundingBox())?.width ?? 0;
      expect.soft(table, `the audits list fits its card at ${width} px`).toBeLessThanOrEqual(card);
    },
  },
  {
    name: 'audits-no-match',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/?status=failed&q=no%20audit%20is%20called%20this');
      await expect(page.getByRole('heading', { name: 'No audit matches these filters' })).toBeVisible();
    },
  },
  {
    name: 'new-audit',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/audits/new');
      await expect(page.getByLabel('Audit name')).toBeVisible();
    },
  },
  {
    name: 'new-audit-errors',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/audits/new');
      await page.getByRole('button', { name: 'Create audit' }).click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    },
  },
  // A generic CSV's column map (the crawl format "Other CSV"): eleven label and field pairs.
  {
    name: 'new-audit-column-map',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/audits/new');
      await page.getByRole('radio', { name: /^A crawl export/ }).check();
      await page.getByLabel('Crawl format').selectOption('csv');
      await expect(page.getByLabel('URL column *')).toBeVisible();
    },
  },
  // The built-in crawler's settings, with a long site root in its start URL's placeholder and hint.
  {
    name: 'new-audit-crawler',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/audits/new');
      await page
        .getByLabel('Sitemap URLs')
        .fill('https://www.a-rather-long-subdomain.example-shop-with-a-long-name.com/sitemap_index.xml');
      await page.getByRole('radio', { name: /^Crawl the site/ }).check();
      await expect(page.getByLabel('Start URL', { exact: true })).toBeVisible();
    },
  },
  {
    name: 'audit-running',
    as: 'reviewer',
    // The fixture server's held index: 20 children, the first 2 answering at once and the rest held until
    // cleanUp releases them.
    open: async (page, made) => {
      const started = await page.request.post('/api/v1/audits', {
        data: {
          name: 'Slow site, running',
          sitemapUrls: [`${fixtureOrigin}/held-index.xml?key=${HOLD_KEY}&children=20&free=2`],
        },
        headers: { origin: made.origin },
      });
      const { id } = (await started.json()) as { id: string };
      await page.goto(`/audits/${id}`);
      await expect(page.getByTestId('audit-status')).toHaveText('Running');
    },
    // Cancelled and released, so the worker is free for the other specs.
    cleanUp: async (page, made) => {
      const id = new URL(page.url()).pathname.split('/').pop();
      await page.request.post(`/api/v1/audits/${id}/cancel`, { headers: { origin: made.origin } });
      await page.request.post(`${fixtureOrigin}/__release/${HOLD_KEY}`);
    },
  },
  {
    name: 'audit-summary',
    as: 'reviewer',
    open: async (page, made) => {
      await page.goto(made.auditUrl);
      await expect(page.getByTestId('summary-prune-total')).toHaveText('10');
    },
  },
  { name: 'audit-review', as: 'reviewer', open: openReview, check: expectReadableUrls },
  // The audit page's other tabs (audit-sections.tsx), each opened from its URL.
  ...(['spot-checks', 'search-console', 'files', 'crawl', 'sharing'] as const).map(
    (tab): State => ({
      name: `audit-tab-${tab}`,
      as: 'reviewer',
      open: async (page, made) => {
        await page.goto(`${made.auditUrl}?tab=${tab}`);
        await expect(page.getByTestId('audit-panel')).toHaveAttribute('data-section', tab);
        await page.waitForLoadState('networkidle');
      },
    }),
  ),
  // The Hygiene tab once the worker has graded the audit (rules, or none, and the files ranked by dirt).
  {
    name: 'audit-tab-hygiene',
    as: 'reviewer',
    open: async (page, made) => {
      await page.goto(`${made.auditUrl}?tab=hygiene`);
      await expect(page.getByTestId('hygiene-files')).toBeVisible({ timeout: 30_000 });
    },
  },
  {
    name: 'audit-review-panel',
    as: 'reviewer',
    open: async (page, made) => {
      await openReview(page, made);
      await rows(page).first().click();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('finding-panel')).toBeVisible();
    },
  },
  {
    name: 'audit-bulk-dialog',
    as: 'reviewer',
    axeScope: 'dialog[open]',
    open: async (page, made) => {
      await openReview(page, { ...made, auditUrl: made.bulkAuditUrl });
      await page.getByRole('button', { name: /^Select all matching/ }).click();
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'audit-viewer',
    as: 'viewer',
    open: async (page, made) => {
      await openReview(page, made);
    },
  },
  {
    name: 'audit-not-found',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/audits/00000000-0000-4000-8000-000000000000');
      await expect(page.getByText('Audit not found')).toBeVisible();
    },
  },
];

const { check } = sweep({ host: 'https://pages-audits.example.com', tag: 'pages-audits' });
for (const state of STATES)
  test(`page ${state.name}: fits 360–1440 px, no serious axe violation`, () => check(state));
