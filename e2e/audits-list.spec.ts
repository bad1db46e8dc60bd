// End to end: the audits list as a reviewer uses it — each audit's findings and reviewed share, the status
// filter and the name search (both in the URL, the search taking % and _ literally), Previous / Next over
// pages of 25, the empty state of a search matching nothing and its Clear filters, live progress of a
// running audit, and an audit whose crawl does not match its sitemap ("Succeeded with warnings"); screenshots
// at 390 and 1440 px, with no sideways scroll at 390.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { fixturePath } from '@/lib/test-support/fixtures';
import { screenshot } from './screenshots';
import { expectNoSidewaysScroll } from './spot-site';

const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;
// Every audit of this spec carries the token in its name, so other specs' audits never enter a page.
const token = `lst${Date.now().toString(36)}`;
const H = 'https://list.example.com';

type ListItem = {
  id: string;
  name: string;
  status: string;
  findings: { prune: number; add: number; held: number; decided: number } | null;
};

let origin = '';

async function create(api: APIRequestContext, data: object): Promise<string> {
  const created = await api.post('/api/v1/audits', { data, headers: { origin } });
  expect(created.status()).toBe(202);
  return ((await created.json()) as { id: string }).id;
}

async function listed(api: APIRequestContext, q: string): Promise<{ items: ListItem[]; total: number }> {
  return (await api.get(`/api/v1/audits?${new URLSearchParams({ q, limit: '100' })}`)).json();
}

const rows = (page: Page) => page.getByTestId('audit-row');

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({
    storageState: path.join('test-results', '.auth', 'reviewer.json'),
  });
  const page = await context.newPage();
  await page.goto('/');
  origin = new URL(page.url()).origin;
  const api = context.request;
  // 26 audits from URLs: the fixture site (succeeds) or a 404 (fails), alternately.
  for (let i = 0; i < 26; i++) {
    await create(api, {
      name: `Bulk ${String(i).padStart(2, '0')} ${token}`,
      sitemapUrls: [i % 2 ? `${fixtureOrigin}/status/404` : `${fixtureOrigin}/`],
    });
  }
  for (const name of [`50%_off ${token}`, `50x1off ${token}`])
    await create(api, { name, sitemapUrls: [`${fixtureOrigin}/status/404`] });
  // A reconciled audit with 4 prune rows and 1 add row, one prune row approved.
  const declared = ['/', '/gone-1', '/gone-2', '/gone-3', '/gone-4'].map((p) => `${H}${p}`);
  const created = await api.post('/api/v1/audits', {
    headers: { origin },
    multipart: {
      name: `Reviewed ${token}`,
      sitemap: {
        name: 'sitemap.xml',
        mimeType: 'application/xml',
        buffer: Buffer.from(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${declared.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`,
        ),
      },
      crawl: {
        name: 'crawl.jsonl',
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(
          [
            { url: `${H}/`, status: 200, indexable: true },
            ...declared.slice(1).map((url) => ({ url, status: 404 })),
            { url: `${H}/new`, status: 200, indexable: true },
          ]
            .map((row) => JSON.stringify(row))
            .join('\n'),
        ),
      },
    },
  });
  expect(created.status()).toBe(202);
  const reviewedId = ((await created.json()) as { id: string }).id;
  await expect
    .poll(
      async () =>
        (await listed(api, token)).items.filter((a) => ['queued', 'running'].includes(a.status)).length,
      {
        timeout: 90_000,
      },
    )
    .toBe(0);
  const prune = (await (await api.get(`/api/v1/audits/${reviewedId}/findings?list=prune`)).json()) as {
    items: { id: number }[];
  };
  const approved = await api.post(`/api/v1/audits/${reviewedId}/decisions`, {
    headers: { origin },
    data: { decision: 'approved', ids: [prune.items[0]?.id] },
  });
  expect(approved.ok()).toBe(true);
  await context.close();
});

test('each audit shows its findings per list and the share reviewed', async ({ page }) => {
  const request = page.request;
  const [reviewed] = (await listed(request, `Reviewed ${token}`)).items;
  expect(reviewed?.findings).toEqual({ prune: 4, add: 1, held: 0, decided: 1 });
  await page.goto(`/?q=${encodeURIComponent(token)}`);
  const row = rows(page).filter({ hasText: `Reviewed ${token}` });
  await expect(row.getByTestId('list-prune')).toHaveAttribute('data-value', '4');
  await expect(row.getByTestId('list-add')).toHaveAttribute('data-value', '1');
  await expect(row.getByTestId('list-held')).toHaveAttribute('data-value', '0');
  // 1 of 5 decided.
  await expect(row.getByTestId('list-reviewed')).toHaveAttribute('data-value', '20');
  await expect(row.getByTestId('list-reviewed')).toContainText('20%');
  await expect(row).toContainText('Succeeded');
  // A failed audit says why it failed, not "No crawl export"; Reviewed says "—", with its reason for a
  // screen reader; a sitemap-only audit has no crawl export to review.
  const failed = rows(page).filter({ hasText: `Bulk 25 ${token}` });
  await expect(failed.getByTestId('list-no-findings')).toHaveText(/^Failed: \S/);
  await expect(failed).not.toContainText('No crawl export');
  await expect(failed.getByTestId('list-not-reviewed')).toHaveText('Nothing to review: the audit failed');
  const sitemapOnly = rows(page).filter({ hasText: `Bulk 24 ${token}` });
  await expect(sitemapOnly).toContainText('Succeeded');
  await expect(sitemapOnly.getByTestId('list-no-findings')).toHaveText('No crawl export');
  await expect(sitemapOnly.getByTestId('list-not-reviewed')).toHaveText('Nothing to review: no crawl export');
  await expect(page.getByTestId('audit-list-page')).toHaveText('Page 1 of 2');
  await screenshot(page, 'audits-list-1440', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByTestId('list-reviewed')).toBeVisible();
  await expectNoSidewaysScroll(page, 'audits list');
  await screenshot(page, 'audits-list-390', { fullPage: true });
});

test('the status filter and the name search narrow the list and live in the URL', async ({ page }) => {
  await page.goto(`/?q=${encodeURIComponent(token)}`);
  await expect(page.getByTestId('audit-list-total')).toHaveText('29 audits match');
  await page.getByLabel('Status').selectOption('failed');
  await expect(page).toHaveURL(/status=failed/);
  // 13 of the bulk audits and both discount names read a 404.
  await expect(page.getByTestId('audit-list-total')).toHaveText('15 audits match');
  for (const status of await rows(page).locator('.badge').allTextContents()) expect(status).toBe('Failed');

  // % and _ are themselves: only the first of the two discount names matches.
  const search = page.getByLabel('Search names');
  await search.fill(`50%_off ${token}`.toUpperCase());
  await expect(page).toHaveURL(/q=50%25_OFF/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText(`50%_off ${token}`);

  // The URL opens the same list.
  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('failed');
  await expect(search).toHaveValue(`50%_off ${token}`.toUpperCase());
  await expect(rows(page)).toHaveCount(1);

  await search.fill(`nothing like this ${token}`);
  await expect(page.getByRole('heading', { name: 'No audit matches these filters' })).toBeVisible();
  await expect(page.getByText(`No failed audit has “nothing like this ${token}” in its name.`)).toBeVisible();
  await screenshot(page, 'audits-list-no-match-1440', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, 'audits list, no match');
  await screenshot(page, 'audits-list-no-match-390', { fullPage: true });
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Status')).toHaveValue('');
  await expect(search).toHaveValue('');
  await expect(rows(page).first()).toBeVisible();
});

test('Previous and Next page through 25 audits at a time', async ({ page }) => {
  await page.goto(`/?q=${encodeURIComponent(token)}`);
  await expect(rows(page)).toHaveCount(25);
  const first = await rows(page).locator('.table__name a').allTextContents();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('audit-list-page')).toHaveText('Page 2 of 2');
  await expect(rows(page)).toHaveCount(4);
  const second = await rows(page).locator('.table__name a').allTextContents();
  expect(second.filter((name) => first.includes(name))).toEqual([]);
  expect(new Set([...first, ...second]).size).toBe(29);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(rows(page)).toHaveCount(25);
  expect(await rows(page).locator('.table__name a').allTextContents()).toEqual(first);
});

test('a running audit shows the phase and what it has counted', async ({ page }) => {
  const request = page.request;
  const id = await create(request, {
    name: `Running ${token}`,
    // The fixture server's held index: 2 children answer at once, the other 18 wait for the release.
    sitemapUrls: [`${fixtureOrigin}/held-index.xml?key=${token}&children=20&free=2`],
  });
  try {
    await page.goto(`/?q=${encodeURIComponent(`Running ${token}`)}`);
    await expect(rows(page).getByTestId('list-progress')).toHaveText(/Reading sitemaps · \d+ of \d+ files/, {
      timeout: 30_000,
    });
  } finally {
    await request.post(`/api/v1/audits/${id}/cancel`, { headers: { origin } });
    await request.post(`${fixtureOrigin}/__release/${token}`);
  }
});

test('a crawl of another site: "Succeeded with warnings" in the list, the warning on top of the audit', async ({
  page,
}) => {
  // Real files of two sites: dhmguide.com's sitemap (kavanaghpatrick/dhm-guide-website) and kerkarmedia.com's
  // Screaming Frog crawl (uday301/audits-KM). Its own name, outside the token, so no count above changes.
  const name = `Mismatch ${Date.now().toString(36)}`;
  const file = (relative: string, mimeType: string) => ({
    name: path.basename(relative),
    mimeType,
    buffer: readFileSync(fixturePath(relative)),
  });
  const created = await page.request.post('/api/v1/audits', {
    headers: { origin },
    multipart: {
      name,
      sitemap: file('xml/recon-dhmguide-sitemap.xml', 'application/xml'),
      crawl: file('crawl-exports/sf-internal_all-kerkarmedia.com.csv', 'text/csv'),
    },
  });
  expect(created.status()).toBe(202);
  await expect
    .poll(async () => (await listed(page.request, name)).items[0]?.status, { timeout: 60_000 })
    .toBe('succeeded');
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  const row = rows(page).filter({ hasText: name });
  await expect(row.locator('.badge')).toHaveText('Succeeded with warnings');
  await expect(row.getByTestId('list-prune')).toHaveAttribute('data-value', '0');
  await expect(row.getByTestId('list-held')).toHaveAttribute('data-value', '177');
  await row.getByRole('link', { name }).click();
  await expect(page.getByTestId('audit-status')).toHaveText('Succeeded with warnings');
  const warning = page.getByTestId('prominent-warning');
  await expect(warning).toHaveAttribute('data-code', 'crawl_mismatch');
  await expect(warning).toContainText('The crawl does not match the sitemap');
  await expect(warning).toContainText("The crawl never reached the sitemap's host");
  // Shown once: not repeated among the summary's warnings.
  await expect(page.getByTestId('sanity-warnings').locator('[data-code="crawl_mismatch"]')).toHaveCount(0);
  await expect(page.getByTestId('add-excluded-otherHost')).toHaveAttribute('data-value', '525');
  await expect(page.getByTestId('add-excluded-hosts')).toContainText('kerkarmedia.com');
  await screenshot(page.getByTestId('add-excluded'), 'audit-other-hosts-1440');
  await screenshot(page, 'audit-crawl-mismatch-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(warning).toBeVisible();
  await expectNoSidewaysScroll(page, 'audit page with a crawl mismatch');
  await screenshot(page, 'audit-crawl-mismatch-390');
});
