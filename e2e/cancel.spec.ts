// End to end: a reviewer cancels an audit whose sitemaps are still being read (the fixture server's held
// index: 40 children, the first 8 answering at once and the rest held until the spec releases them), and it
// stays cancelled.
import { expect, type Page, test } from '@playwright/test';
import { expectStepEnded } from './database';
import { screenshot } from './screenshots';

const fixtureOrigin = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 3218}`;
const WIDTHS = [390, 1440] as const;

/** A held index of `children` sitemaps, the first `free` answering at once (lib/test-support/fixture-server.ts). */
function heldIndex(children: number, free: number) {
  const key = `cancel-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    url: `${fixtureOrigin}/held-index.xml?key=${key}&children=${children}&free=${free}`,
    release: async (page: Page) =>
      expect((await page.request.post(`${fixtureOrigin}/__release/${key}`)).status()).toBe(204),
  };
}

/** The page as a phone and a laptop show it; the test goes on at laptop width. On the phone the file tree
 * is a stacked list: every file's whole URL, its HTTP status, entries, size and status are in view. */
async function shoot(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`, { fullPage: true });
    const cut = await page.getByTestId('sitemap-file').evaluateAll((rows) =>
      rows.flatMap((row) => {
        const box = row.getBoundingClientRect();
        const parts = [
          row.querySelector('[id^="tree-label-"]'),
          ...row.querySelectorAll('[data-testid="tree-cell"]'),
        ];
        return parts
          .filter((part): part is Element => part !== null)
          .filter((part) => {
            const r = part.getBoundingClientRect();
            return part.scrollWidth > part.clientWidth + 1 || r.right > box.right + 1 || r.width === 0;
          })
          .map((part) => part.textContent ?? '');
      }),
    );
    expect(cut, `cut off at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** What the tiles count and what the tree shows, read from the page at one moment. */
function countsOnPage(page: Page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid="sitemap-file"]')];
    return {
      files: Number(document.querySelector('[data-testid="count-files"]')?.getAttribute('data-value')),
      entries: Number(document.querySelector('[data-testid="count-entries"]')?.getAttribute('data-value')),
      rowsRead: rows.filter((row) => ['ok', 'failed'].includes(row.getAttribute('data-status') ?? '')).length,
      pending: rows.filter((row) => row.getAttribute('data-status') === 'pending').length,
      summary: document.querySelector('[data-testid="tree-summary"]')?.textContent ?? '',
    };
  });
}

test('cancel a running audit: confirm, see who cancelled it, and it stays cancelled', async ({ page }) => {
  const index = heldIndex(40, 8);
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Slow site, cancelled');
  await page.getByLabel('Sitemap URLs').fill(index.url);
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page).toHaveURL(/\/audits\/[0-9a-f-]{36}$/);
  const auditId = new URL(page.url()).pathname.split('/').pop() ?? '';

  const status = page.getByTestId('audit-status');
  await expect(status).toHaveText('Running');
  await expect(page.getByTestId('audit-progress')).toBeVisible();
  const cancel = page.getByTestId('cancel-audit');
  await expect(cancel).toHaveText('Cancel audit');
  // Some children read (the 8 not held, 4 at a time): the tree, its header and the tiles say the same.
  await expect(page.getByTestId('tree-summary')).toHaveText(/^([2-9]|\d\d) of \d+ files read · 0 failed/, {
    timeout: 15_000,
  });
  const running = await countsOnPage(page);
  expect(running.rowsRead, JSON.stringify(running)).toBeLessThanOrEqual(running.files);
  expect(running.pending).toBe(0);
  expect(running.summary.startsWith(`${running.files} of `), JSON.stringify(running)).toBe(true);
  await shoot(page, 'cancel-button');

  // The dialog's safe choice has the focus, and taking it leaves the audit running.
  const dialog = page.getByRole('dialog', { name: 'Cancel this audit?' });
  await cancel.click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Keep it running' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Keep it running' }).click();
  await expect(dialog).toBeHidden();
  await expect(status).toHaveText('Running');

  await cancel.click();
  await expect(dialog).toContainText('Slow site, cancelled');
  await shoot(page, 'cancel-confirm');
  await dialog.getByRole('button', { name: 'Cancel audit' }).click();

  await expect(status).toHaveText('Cancelled', { timeout: 5_000 });
  const cancelled = page.getByTestId('audit-cancelled');
  await expect(cancelled).toContainText(/^Cancelled by Rita Reviewer at \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);
  await expect(cancel).toHaveCount(0);
  await expect(page.getByTestId('audit-progress')).toHaveCount(0);
  // No error box (Next's route announcer also has role=alert, hence the class).
  await expect(page.locator('.alert')).toHaveCount(0);
  // What it read is kept and counted; the file it was reading says it was never read.
  const notRead = page.locator('[data-testid="sitemap-file"][data-status="skipped"]');
  await expect(notRead).toHaveCount(1);
  await expect(notRead).toContainText('Not read: the audit was cancelled');
  await expect(page.getByTestId('tree-unfinished')).toContainText('cancelled while reading the sitemaps');
  const ended = await countsOnPage(page);
  expect(ended.files, JSON.stringify(ended)).toBe(ended.rowsRead);
  expect(ended.files).toBeGreaterThanOrEqual(running.files);
  expect(ended.pending).toBe(0);
  expect(ended.summary).toMatch(/ · 1 not read$/);
  await shoot(page, 'cancel-done');

  // The held files answer at once from now on: a worker still reading would read them all. It has let go of
  // the audit (its ingest job ended), and nothing brought the audit back.
  await index.release(page);
  await expectStepEnded(auditId, 'ingest');
  await page.reload();
  await expect(status).toHaveText('Cancelled');
  await expect(cancelled).toContainText('Cancelled by Rita Reviewer');
  await expect(page.getByTestId('cancel-audit')).toHaveCount(0);
  const audit = await (await page.request.get(`/api/v1/audits/${auditId}`)).json();
  expect(audit).toMatchObject({ status: 'cancelled', cancelled: { by: 'Rita Reviewer' } });
  // Nothing the worker did after the cancel changed the counts.
  expect(await countsOnPage(page)).toEqual(ended);
  expect(audit.sitemap.files).toBe(ended.files);
});

test('when someone else cancelled it first, the page says why it could not cancel', async ({ page }) => {
  const index = heldIndex(20, 0);
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Cancelled by a colleague first');
  await page.getByLabel('Sitemap URLs').fill(index.url);
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page).toHaveURL(/\/audits\/[0-9a-f-]{36}$/);
  const cancelPath = `${new URL(page.url()).pathname.replace('/audits/', '/api/v1/audits/')}/cancel`;
  await expect(page.getByTestId('audit-status')).toHaveText(/Queued|Running/);

  // The colleague's request reaches the server just before the page's: the server answers the page 409.
  let colleague: { status: number; code?: string } | null = null;
  await page.route(`**${cancelPath}`, async (route) => {
    const response = await page.request.post(cancelPath, { headers: { origin: new URL(page.url()).origin } });
    colleague = { status: response.status(), code: (await response.json()).status };
    await route.continue();
  });
  await page.getByTestId('cancel-audit').click();
  await page
    .getByRole('dialog', { name: 'Cancel this audit?' })
    .getByRole('button', { name: 'Cancel audit' })
    .click();

  const alert = page.getByRole('alert').filter({ hasText: 'The audit could not be cancelled' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(/already ended/i);
  expect(colleague).toEqual({ status: 200, code: 'cancelled' });
  await expect(page.getByTestId('audit-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('cancel-audit')).toHaveCount(0);
  await screenshot(page, 'cancel-conflict', { fullPage: true });
  await index.release(page);
});
