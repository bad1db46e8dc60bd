// Runs before the other specs: first-run setup through the UI (or sign-in, when the data directory
// already has users), then a reviewer account made with `npm run user` while the app runs, signed in
// through the login page. Each role's browser state is saved for the specs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test as setup } from '@playwright/test';
import { SERVER_NODE_ARGS } from '../scripts/node-args';
import { screenshot } from './screenshots';

export const ADMIN = { email: 'admin@e2e.test', password: 'admin password 1' };
export const REVIEWER = { email: 'reviewer@e2e.test', password: 'reviewer password 1' };
const auth = path.resolve(import.meta.dirname, '..', 'test-results', '.auth');

setup(
  'first run: set up the admin, add a reviewer from the command line, sign in',
  async ({ page, browser }) => {
    await page.goto('/');
    if (page.url().endsWith('/setup')) {
      await expect(page.getByRole('heading', { name: 'Set up Sitemap Audit' })).toBeVisible();
      await screenshot(page, 'setup');
      await page.getByLabel('Your name').fill('Ada Admin');
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Create admin account' }).click();
    } else {
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
    // Setup is closed once a user exists: it sends people to sign in, with a note saying so.
    const closed = await page.request.get('/setup', { maxRedirects: 0 });
    expect(closed.status()).toBe(307);
    expect(closed.headers().location).toMatch(/\/login\?setup=done$/);
    // Signed out (a signed-in visit to /login goes on to the app).
    const signedOut = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const setupPage = await signedOut.newPage();
    await setupPage.goto('/setup');
    await expect(setupPage).toHaveURL(/\/login\?setup=done$/);
    await expect(setupPage.getByTestId('setup-done')).toContainText('already set up');
    await expect(setupPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
    for (const width of [390, 1440]) {
      await setupPage.setViewportSize({ width, height: 800 });
      await screenshot(setupPage, `setup-done-${width}`);
    }
    await signedOut.close();
    await page.context().storageState({ path: path.join(auth, 'admin.json') });

    // The CLI against the running app's database (same DATA_DIR).
    try {
      execFileSync(
        process.execPath,
        [
          ...SERVER_NODE_ARGS,
          'scripts/user.ts',
          'create',
          '--email',
          REVIEWER.email,
          '--role',
          'reviewer',
          '--name',
          'Rita Reviewer',
          '--password-stdin',
        ],
        {
          input: `${REVIEWER.password}\n`,
          env: { ...process.env, DATA_DIR: path.join('test-results', 'e2e-data') },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
    } catch (error) {
      if (!String((error as { stderr?: Buffer }).stderr).includes('exists')) throw error;
    }

    await page.context().clearCookies();
    await page.goto('/');
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel('Email').fill(REVIEWER.email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.alert')).toContainText('The email or password is not right');
    await screenshot(page, 'login-error');
    await page.getByLabel('Password').fill(REVIEWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Rita Reviewer')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await page.context().storageState({ path: path.join(auth, 'reviewer.json') });
  },
);
