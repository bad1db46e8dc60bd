// End to end, the sweep of every page and state of the app (e2e/pages-audits.spec.ts and
// e2e/pages-more.spec.ts hold the states; two files so they run side by side): each state is loaded once
// and then looked at in place at 360, 390, 768 and 1440 px: no sideways scroll, no serious or critical axe
// violation (WCAG 2.0 A/AA and 2.1 AA), and with E2E_SCREENSHOTS=1 a full-page screenshot at 390 and
// 1440 px (test-results/screenshots/page-<state>-<width>.png).
// Each file builds its own data through the API in beforeAll, on its own host: a small finished audit
// (every list has rows), shared once with a live link and once revoked, and one with more prune rows than a
// page (so "select all matching" asks for confirmation), the two runs of the host's site; and a viewer made
// by the admin. Lean on purpose (the CI machine is slow): a state that only adds an overlay runs axe on the
// overlay (the page under it is a state of its own).
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { sidewaysOverflow } from './fit';
import { screenshot } from './screenshots';
import { auth } from './spot-site';

const WIDTHS = [360, 390, 768, 1440] as const;
const SHOT_WIDTHS = new Set<number>([390, 1440]);
const AXE_WIDTHS = new Set<number>([390, 1440]);
const CRAWLED_AT = '2026-11-27T09:00:00Z';
// A spec may not import e2e/auth.setup.ts: the reviewer it made, by address.
export const REVIEWER_EMAIL = 'reviewer@e2e.test';
const VIEWER_PASSWORD = 'viewer password 1';

export type Role = 'anonymous' | 'viewer' | 'reviewer' | 'admin';
/** What beforeAll made, for the states to open. */
export type Made = {
  origin: string;
  auditUrl: string;
  bulkAuditUrl: string;
  shareUrl: string;
  revokedUrl: string;
  /** The site both audits joined (the file's host), and the diff of its two runs. */
  siteUrl: string;
  diffUrl: string;
};
export type State = {
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
const goneUrls = (host: string, gone: number) =>
  Array.from({ length: gone }, (_, i) => `${host}/old/page-${String(i + 1).padStart(3, '0')}`);
const declared = (host: string, gone: number) => [
  `${host}/`,
  `${host}/about`,
  `${host}/moved`,
  `${host}/hidden`,
  `${host}/busy`,
  ...goneUrls(host, gone),
];

function sitemap(host: string, gone: number): Buffer {
  const urls = declared(host, gone)
    .map((url) => `<url><loc>${url}</loc></url>`)
    .join('\n');
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
}

function crawl(host: string, gone: number): Buffer {
  const ok = (url: string, extra: object = {}) => ({
    url,
    status: 200,
    canonical_url: url,
    indexable: true,
    crawled_at: CRAWLED_AT,
    ...extra,
  });
  const lines = [
    ok(`${host}/`, { depth: 0, inlinks: 9 }),
    ok(`${host}/about`),
    { url: `${host}/moved`, status: 301, redirect_url: `${host}/about`, crawled_at: CRAWLED_AT },
    ok(`${host}/hidden`, { noindex: true, indexable: false }),
    { url: `${host}/busy`, status: 503, crawled_at: CRAWLED_AT },
    ...goneUrls(host, gone).map((url) => ({ url, status: 404, crawled_at: CRAWLED_AT, inlinks: 1 })),
    ok(`${host}/new-a`, { inlinks: 3 }),
    ok(`${host}/new-b`, { inlinks: 2 }),
  ];
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

/** Serious and critical axe violations, one line each: rule, what it is, and the nodes' targets. */
async function axeProblems(page: Page, scope?: string): Promise<string[]> {
  // Only violations are read: axe need not describe every passing node. (options() replaces what
  // withTags() set, so it comes first.) Legacy mode runs axe.run in the page itself; the default opens a
  // new page for every run to merge the frames' results, which took most of the sweep's time, and the app
  // has no frames to merge.
  const builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
    .setLegacyMode();
  const results = await (scope ? builder.include(scope) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A spec file's sweep: its data made in beforeAll (audits of `host`, e.g. https://pages.example.com, and a
 * viewer whose address has `tag` in it); `check` is the body of each state's test (the test itself is
 * declared in the spec, so reports name the spec file). */
export function sweep({ host, tag }: { host: string; tag: string }): {
  check: (state: State) => Promise<void>;
} {
  const viewer = { email: `viewer-${tag}-${Date.now()}@e2e.test`, password: VIEWER_PASSWORD };
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
      await page.getByLabel('Email').fill(viewer.email);
      await page.getByLabel('Password').fill(viewer.password);
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
    await adminPage.close();
    const headers = { origin };
    const user = await admin.request.post('/api/v1/users', {
      data: { email: viewer.email, name: 'Pat Viewer', role: 'viewer', password: viewer.password },
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
          sitemap: { name: 'sitemap.xml', mimeType: 'application/xml', buffer: sitemap(host, gone) },
          crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: crawl(host, gone) },
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
    // Both uploads declare the host: they are two runs of its site (joined when they settled).
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

  return {
    check: async (state) => {
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
            await screenshot(page, `page-${state.name}-${width}`, { fullPage: true });
        }
      } finally {
        await state.cleanUp?.(page, made);
        await page.close();
      }
    },
  };
}
