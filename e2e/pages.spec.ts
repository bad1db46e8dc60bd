// End to end: every page and state of the app, each loaded once and then looked at in place at 360, 390,
// 768 and 1440 px: no sideways scroll, no serious or critical axe violation (WCAG 2.0 A/AA and 2.1 AA),
// and a full-page screenshot at 390 and 1440 px (test-results/screenshots/page-<state>-<width>.png).
// The audits are built through the API in beforeAll: a small finished audit (every list has rows), shared
// once with a live link and once revoked, and one with more prune rows than a page (so "select all
// matching" asks for confirmation); a viewer is made by the admin. A new page or state is one more row in
// STATES. Lean on purpose (the CI machine is slow): a state that only adds an overlay runs axe on the
// overlay (the page under it is a state of its own).
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { sidewaysOverflow } from './fit';
import { auth, shots } from './spot-site';

const WIDTHS = [360, 390, 768, 1440] as const;
const SHOT_WIDTHS = new Set<number>([390, 1440]);
const AXE_WIDTHS = new Set<number>([390, 1440]);
const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;
const H = 'https://pages.example.com';
const CRAWLED_AT = '2026-11-27T09:00:00Z';
// A spec may not import e2e/auth.setup.ts: the reviewer it made, by address.
const REVIEWER_EMAIL = 'reviewer@e2e.test';
const VIEWER = { email: `viewer-pages-${Date.now()}@e2e.test`, password: 'viewer password 1' };
const HOLD_KEY = `pages-${Date.now().toString(36)}`;

type Role = 'anonymous' | 'viewer' | 'reviewer' | 'admin';
/** What beforeAll made, for the states to open. */
type Made = {
  origin: string;
  auditUrl: string;
  bulkAuditUrl: string;
  shareUrl: string;
  revokedUrl: string;
  /** The site both audits joined (pages.example.com), and the diff of its two runs. */
  siteUrl: string;
  diffUrl: string;
};
type State = {
  /** page-<name>-<width>.png */
  name: string;
  as: Role;
  /** Loads the page once and brings it into the state (waiting for what shows it). */
  open: (page: Page, made: Made) => Promise<void>;
  /** A selector axe is limited to (an overlay whose page is checked as a state of its own). */
  axeScope?: string;
  /** Undoes what open started (an audit left running). */
  cleanUp?: (page: Page, made: Made) => Promise<void>;
  /** More to check at each width (soft assertions). */
  check?: (page: Page, width: number) => Promise<void>;
};

// `gone` pages answering 404, a redirect, a noindex page, a held 503, and two crawled pages no sitemap
// declares (the add list).
const goneUrls = (gone: number) =>
  Array.from({ length: gone }, (_, i) => `${H}/old/page-${String(i + 1).padStart(3, '0')}`);
const declared = (gone: number) => [
  `${H}/`,
  `${H}/about`,
  `${H}/moved`,
  `${H}/hidden`,
  `${H}/busy`,
  ...goneUrls(gone),
];

function sitemap(gone: number): Buffer {
  const urls = declared(gone)
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join('\n');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
}

function crawl(gone: number): Buffer {
  const ok = (url: string, extra: object = {}) => ({
    url,
    status: 200,
    canonical_url: url,
    indexable: true,
    crawled_at: CRAWLED_AT,
    ...extra,
  });
  const lines = [
    ok(`${H}/`, { depth: 0, inlinks: 9 }),
    ok(`${H}/about`),
    { url: `${H}/moved`, status: 301, redirect_url: `${H}/about`, crawled_at: CRAWLED_AT },
    ok(`${H}/hidden`, { noindex: true, indexable: false }),
    { url: `${H}/busy`, status: 503, crawled_at: CRAWLED_AT },
    ...goneUrls(gone).map((url) => ({ url, status: 404, crawled_at: CRAWLED_AT, inlinks: 1 })),
    ok(`${H}/new-a`, { inlinks: 3 }),
    ok(`${H}/new-b`, { inlinks: 2 }),
  ];
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

const rows = (page: Page) => page.getByTestId('finding-row');

/** The audit page with its review shown (?tab=review), once React has taken over its rows (they are in
 * the server's HTML before that, when clicks do nothing yet). */
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

async function openReview(page: Page, made: Made) {
  await page.goto(`${made.auditUrl}?tab=review`);
  await page.waitForFunction(() => {
    const row = document.querySelector('[data-testid="finding-row"]');
    return row !== null && Object.keys(row).some((key) => key.startsWith('__reactProps'));
  });
}

const STATES: State[] = [
  {
    name: 'sign-in',
    as: 'anonymous',
    open: async (page) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    },
  },
  {
    name: 'sign-in-error',
    as: 'anonymous',
    open: async (page) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(REVIEWER_EMAIL);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.locator('.alert')).toBeVisible();
    },
  },
  {
    name: 'setup-done',
    as: 'anonymous',
    open: async (page) => {
      await page.goto('/setup');
      await expect(page.getByRole('link', { name: 'Sign in' }).or(page.getByLabel('Email'))).toBeVisible();
    },
  },
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
  {
    name: 'account',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/account');
      await expect(page.getByLabel('Token name')).toBeVisible();
    },
  },
  {
    name: 'users',
    as: 'admin',
    open: async (page) => {
      await page.goto('/users');
      await expect(page.getByRole('button', { name: 'Add user' })).toBeVisible();
    },
  },
  {
    name: 'forbidden',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/users');
      await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    },
  },
  ...(['prune', 'add', 'held'] as const).map(
    (list): State => ({
      name: `report-${list}`,
      as: 'anonymous',
      open: async (page, made) => {
        await page.goto(list === 'prune' ? made.shareUrl : `${made.shareUrl}?list=${list}`);
        await expect(page.getByTestId('shared-report')).toBeVisible();
      },
    }),
  ),
  {
    // The report's list filtered by reason and searched, and a search matching nothing.
    name: 'report-filtered',
    as: 'anonymous',
    open: async (page, made) => {
      await page.goto(`${made.shareUrl}?list=prune&reason=http_404&q=${encodeURIComponent('/')}`);
      await expect(page.getByTestId('report-filters')).toBeVisible();
      await expect(page.getByTestId('report-reason-filter-http_404')).toHaveAttribute('aria-current', 'true');
    },
  },
  {
    name: 'report-no-match',
    as: 'anonymous',
    open: async (page, made) => {
      await page.goto(`${made.shareUrl}?list=prune&q=no-such-url-anywhere`);
      await expect(page.getByTestId('report-empty')).toHaveText('No rows match these filters.');
    },
  },
  // The sites list and the site of the two audits above: its tabs, as a viewer (no Run again,
  // no forms) and as an admin where the forms are, and the diff of its two runs.
  {
    name: 'sites',
    as: 'reviewer',
    open: async (page) => {
      await page.goto('/sites?q=pages.example.com');
      await expect(page.getByTestId('site-row')).toContainText('pages.example.com');
    },
  },
  {
    name: 'site',
    as: 'viewer',
    open: async (page, made) => {
      await page.goto(made.siteUrl);
      await expect(page.getByTestId('site-run').nth(1)).toBeVisible();
      await expect(page.getByTestId('site-prune-chart')).toBeVisible();
      expect(await page.getByTestId('run-again').count(), 'no Run again for a viewer').toBe(0);
    },
  },
  {
    name: 'site-changes',
    as: 'reviewer',
    open: async (page, made) => {
      await page.goto(`${made.siteUrl}?tab=changes`);
      await expect(page.getByTestId('change-feed')).toBeVisible();
    },
  },
  ...(['schedules', 'webhooks', 'settings'] as const).map(
    (tab): State => ({
      name: `site-${tab}`,
      as: 'admin',
      open: async (page, made) => {
        await page.goto(`${made.siteUrl}?tab=${tab}`);
        await expect(page.getByTestId('site-panel')).toHaveAttribute('data-section', tab);
        await page.waitForLoadState('networkidle');
      },
    }),
  ),
  {
    name: 'site-diff',
    as: 'reviewer',
    open: async (page, made) => {
      await page.goto(made.diffUrl);
      await expect(page.getByTestId('diff-rows')).toBeVisible();
    },
  },
  {
    name: 'report-revoked',
    as: 'anonymous',
    open: async (page, made) => {
      expect((await page.goto(made.revokedUrl))?.status()).toBe(404);
    },
  },
];

const made: Made = {
  origin: '',
  auditUrl: '',
  bulkAuditUrl: '',
  shareUrl: '',
  revokedUrl: '',
  siteUrl: '',
  diffUrl: '',
};
const contexts = new Map<Role, BrowserContext>();

async function newContext(browser: Browser, as: Role): Promise<BrowserContext> {
  if (as === 'anonymous') return browser.newContext({ storageState: { cookies: [], origins: [] } });
  if (as === 'viewer') {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(VIEWER.email);
    await page.getByLabel('Password').fill(VIEWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Pat Viewer')).toBeVisible();
    await page.close();
    return context;
  }
  return browser.newContext({ storageState: path.join(auth, `${as}.json`) });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newContext(browser, 'admin');
  const adminPage = await admin.newPage();
  await adminPage.goto('/account');
  const origin = new URL(adminPage.url()).origin;
  const headers = { origin };
  const user = await adminPage.request.post('/api/v1/users', {
    data: { email: VIEWER.email, name: 'Pat Viewer', role: 'viewer', password: VIEWER.password },
    headers,
  });
  expect(user.status()).toBe(201);
  contexts.set('admin', admin);

  const reviewer = await newContext(browser, 'reviewer');
  contexts.set('reviewer', reviewer);
  const api = reviewer.request;
  /** An audit of `gone` 404 pages and the rest, once it has succeeded. */
  const audit = async (name: string, gone: number) => {
    const created = await api.post('/api/v1/audits', {
      headers,
      multipart: {
        name,
        sitemap: { name: 'sitemap.xml', mimeType: 'application/xml', buffer: sitemap(gone) },
        crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: crawl(gone) },
      },
    });
    expect(created.status()).toBe(202);
    const { id } = (await created.json()) as { id: string };
    await expect
      .poll(
        async () => ((await (await api.get(`/api/v1/audits/${id}`)).json()) as { status: string }).status,
        {
          timeout: 60_000,
        },
      )
      .toBe('succeeded');
    return id;
  };
  // 8 rows to prune (one page of the review); 105 + 2 for the bulk confirmation (more than a page).
  const id = await audit('Pages audit', 8);
  const bulkId = await audit('Pages audit, bulk', 105);
  made.bulkAuditUrl = `${origin}/audits/${bulkId}`;
  // Both uploads declare pages.example.com: they are two runs of its site (joined when they settled).
  const { siteId } = (await (await api.get(`/api/v1/audits/${bulkId}`)).json()) as { siteId: string };
  made.siteUrl = `${origin}/sites/${siteId}`;
  made.diffUrl = `${made.siteUrl}/diff?from=${id}&to=${bulkId}`;
  made.origin = origin;
  made.auditUrl = `${origin}/audits/${id}`;
  const share = async () =>
    (await (await api.post(`/api/v1/audits/${id}/shares`, { headers, data: {} })).json()) as {
      id: string;
      url: string;
    };
  made.shareUrl = (await share()).url;
  const revoked = await share();
  const revoking = await api.delete(`/api/v1/shares/${revoked.id}`, { headers });
  expect(revoking.status(), await revoking.text()).toBe(204);
  made.revokedUrl = revoked.url;
  contexts.set('viewer', await newContext(browser, 'viewer'));
  contexts.set('anonymous', await newContext(browser, 'anonymous'));
});

test.afterAll(async () => {
  for (const context of contexts.values()) await context.close();
});

/** Serious and critical axe violations, one line each: rule, what it is, and the nodes' targets. */
async function axeProblems(page: Page, scope?: string): Promise<string[]> {
  // Only violations are read: axe need not describe every passing node. (options() replaces what
  // withTags() set, so it comes first.)
  const builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa']);
  const results = await (scope ? builder.include(scope) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const state of STATES) {
  test(`page ${state.name}: fits 360–1440 px, no serious axe violation`, async () => {
    // Four widths and two axe runs: more than one ordinary test's time on a slow, shared machine.
    test.setTimeout(180_000);
    const context = contexts.get(state.as);
    if (!context) throw new Error(`no context for ${state.as}`);
    const page = await context.newPage();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await state.open(page, made);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        // Two frames for layout to follow the new width: in the first, charts measure their container
        // (ResizeObserver) and set their width; by the second, React has drawn them at it.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const overflow = await sidewaysOverflow(page);
        expect
          .soft(overflow, `${state.name} at ${width} px scrolls sideways (the widest elements are listed)`)
          .toEqual([]);
        // Axe at 390 and 1440 px: the two layouts there are (below 860 px the header folds into its menu
        // and the review is cards, at 768 px too); 360 and 768 px are checked for fit only.
        if (AXE_WIDTHS.has(width))
          expect
            .soft(await axeProblems(page, state.axeScope), `${state.name} at ${width} px: axe`)
            .toEqual([]);
        await state.check?.(page, width);
        if (SHOT_WIDTHS.has(width))
          await page.screenshot({
            path: path.join(shots, `page-${state.name}-${width}.png`),
            fullPage: true,
          });
      }
    } finally {
      await state.cleanUp?.(page, made);
      await page.close();
    }
  });
}
