// End to end: an admin adds a viewer and makes an API token; the viewer can read but not decide.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots';

const auth = path.resolve(import.meta.dirname, '..', 'test-results', '.auth');

test.describe('as admin', () => {
  test.use({ storageState: path.join(auth, 'admin.json') });

  test('add a viewer, create an API token that works, and the viewer only reads', async ({
    page,
    browser,
  }) => {
    const email = `viewer-${Date.now()}@e2e.test`;
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto('/users');
    // Security headers on every page.
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Scripts only with this response's nonce, never any inline script.
    expect(headers['content-security-policy']).toMatch(
      /script-src 'self' 'nonce-[\w+/=]+' 'strict-dynamic'(;|$)/,
    );
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    await page.locator('#new-user-name').fill('Vic Viewer');
    await page.locator('#new-user-email').fill(email);
    await page.locator('#new-user-role').selectOption('viewer');
    await page.getByLabel('Initial password').fill('viewer password 1');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByRole('row', { name: /Vic Viewer/ })).toBeVisible();
    await screenshot(page, 'users', { fullPage: true });

    await page.goto('/account');
    await page.getByLabel('Token name').fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('token-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^sat_[\w-]{43}$/);
    await screenshot(page, 'account', { fullPage: true });
    const api = await page.request.get('/api/v1/auth/me', { headers: { authorization: `Bearer ${secret}` } });
    expect(await api.json()).toMatchObject({ user: { role: 'admin' }, via: 'token' });

    // The viewer: no "New audit", no decisions, and the server refuses them anyway.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const viewer = await context.newPage();
    await viewer.goto('/login');
    await viewer.getByLabel('Email').fill(email);
    await viewer.getByLabel('Password').fill('viewer password 1');
    await viewer.getByRole('button', { name: 'Sign in' }).click();
    await expect(viewer.getByText('Vic Viewer')).toBeVisible();
    await expect(viewer.getByRole('link', { name: 'New audit' })).toHaveCount(0);
    await viewer.goto('/users');
    await expect(viewer.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    const refused = await viewer.request.post('/api/v1/audits', {
      data: { sitemapUrls: ['https://example.com/sitemap.xml'] },
      headers: { origin: new URL(viewer.url()).origin },
    });
    expect(refused.status()).toBe(403);
    await context.close();
    // The pages ran their scripts under the policy without a single violation.
    expect(violations).toEqual([]);
  });
});
