// End to end, against the built app (`next start`): where sign-in sends a browser (`next`), which address
// sign-in limits count when a client sends X-Forwarded-For (TRUST_PROXY unset), and the admin's
// password reset dialog.
import http from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots';

// The reviewer e2e/auth.setup.ts creates (a spec may not import a setup file).
const REVIEWER = { email: 'reviewer@e2e.test', password: 'reviewer password 1' };

const auth = path.resolve(import.meta.dirname, '..', 'test-results', '.auth');

/** A JSON POST from a chosen loopback address (Playwright's request client cannot pick one): the status. */
function post(
  url: string,
  from: string,
  { body, headers }: { body: unknown; headers: Record<string, string> },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const next of ['/%5Cevil.example/', '/%09/evil.example/', '/\\/evil.example/', '//evil.example']) {
    test(`signing in from /login?next=${next} stays on this site`, async ({ page, baseURL }) => {
      await page.goto(`/login?next=${next}`);
      await page.getByLabel('Email').fill(REVIEWER.email);
      await page.getByLabel('Password').fill(REVIEWER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New audit' }),
      ).toBeVisible();
      expect(page.url()).toBe(`${baseURL}/`);
    });
  }

  test('a page asked for before signing in is where sign-in leads', async ({ page, baseURL }) => {
    await page.goto('/account');
    await expect(page).toHaveURL(`${baseURL}/login?next=%2Faccount`);
    await page.getByLabel('Email').fill(REVIEWER.email);
    await page.getByLabel('Password').fill(REVIEWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseURL}/account`);
  });

  test('X-Forwarded-For is not believed without TRUST_PROXY: 30 failures lock this client', async ({
    baseURL,
  }) => {
    // From a loopback address of its own (the rest of the suite signs in from 127.0.0.1).
    const from = `127.77.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        await post(`${baseURL}/api/v1/auth/login`, from, {
          body: { email: `nobody-${Date.now()}-${i}@e2e.test`, password: 'wrong password!' },
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        }),
      );
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    // And claiming another address does not get the locked client in.
    const claimed = await post(`${baseURL}/api/v1/auth/login`, from, {
      body: REVIEWER,
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-sitemap-audit-peer': 'forged http 203.0.113.9' },
    });
    expect(claimed).toBe(429);
  });
});

test.describe('signed in', () => {
  test('a signed-in visit to /login?next= is redirected, only to a path of this site', async ({ page }) => {
    for (const [next, location] of [
      ['/%5Cevil.example/', '/'],
      ['https://evil.example/', '/'],
      ['/account?tab=tokens', '/account?tab=tokens'],
    ]) {
      const res = await page.request.get(`/login?next=${encodeURIComponent(next as string)}`, {
        maxRedirects: 0,
      });
      expect(res.status()).toBe(307);
      expect(res.headers().location).toBe(location);
    }
  });
});

test.describe('as admin', () => {
  test.use({ storageState: path.join(auth, 'admin.json') });

  test('resetting a password offers to revoke the API tokens, ticked', async ({ page }) => {
    await page.goto('/users');
    const row = page.getByRole('row', { name: /Rita Reviewer/ });
    await row.getByRole('button', { name: /Reset password/ }).click();
    // Every user row has its dialog (another spec may have added users): the open one is Rita's.
    const dialog = page.getByRole('dialog', { name: /Reset the password of Rita/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(/Also revoke their API tokens/)).toBeChecked();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `reset-password-${width}`);
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});
