// End to end, half of the sweep of every page and state (e2e/page-sweep.ts says what each is checked for):
// sign-in (and its error), the closed setup page, account, users (admin), the forbidden page, the shared
// report's lists (filtered, matching nothing, revoked), the sites list, a site's tabs (as a viewer and as
// an admin) and the diff of its two runs. A new page or state is one more row in STATES, here or in
// e2e/pages-audits.spec.ts (whichever file is shorter).
import { expect, test } from '@playwright/test';
import { REVIEWER_EMAIL, type State, sweep } from './page-sweep';

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

const { check } = sweep({ host: 'https://pages.example.com', tag: 'pages-more' });
for (const state of STATES)
  test(`page ${state.name}: fits 360–1440 px, no serious axe violation`, () => check(state));
