// End to end: an audit of two real fixture sitemaps (squirrelscan's bad one: a relative loc, a missing loc,
// a cross-domain URL, a future and an invalid lastmod; and its good one) is graded by the worker once it is
// reconciled; the Hygiene tab shows the rules by severity with their fix and examples, and the files ranked
// by dirt; a reviewer's Re-check grades them again. Screenshots at 390 and 1440 px.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { uploadAudit } from './seed';
import { expectNoSidewaysScroll } from './spot-site';

const fixtures =
  process.env.FIXTURES_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures');
const BAD = path.join(fixtures, 'malformed', 'squirrelscan-bad-sitemap-audit-rules.xml');
const GOOD = path.join(fixtures, 'xml', 'squirrelscan-good-sitemap.xml');

type LintNow = { status: string; lint: { id: string } };

/** Every declared URL crawled, but two of the bad sitemap's pages are gone (404): its dirt is 2 of 7. */
function crawl(): Buffer {
  const ok = ['/', '/about', '/blog', '/blog/seo-guide', '/contact', '/page1', '/page4', '/valid-page'];
  const lines = [
    ...ok.map((p) => ({ url: `https://example.com${p}`, status: 200, crawled_at: '2026-11-27T09:00:00Z' })),
    ...['/page2', '/page3'].map((p) => ({ url: `https://example.com${p}`, status: 404 })),
  ];
  return Buffer.from(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page.getByTestId('hygiene-section'), `hygiene-${name}-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, `hygiene, ${name}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('the Hygiene tab: rules by severity with fix and examples, files ranked by dirt, re-check', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await uploadAudit(page, 'Hygiene of the squirrelscan sitemaps', {
    sitemaps: [BAD, GOOD],
    crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: crawl() },
  });

  await openAuditTab(page, 'Hygiene');
  const section = page.getByTestId('hygiene-section');
  // The worker grades the audit after its reconciliation: the result replaces the waiting state.
  const errors = section.getByTestId('hygiene-group-error');
  await expect(errors).toBeVisible({ timeout: 30_000 });
  await expect(section.getByTestId('hygiene-group-warning')).toBeVisible();
  await expect(section.getByTestId('hygiene-group-info')).toBeVisible();
  const relative = errors.getByTestId('hygiene-rule-loc_relative');
  await expect(relative).toContainText('Relative location');
  await expect(relative).toContainText('1');
  await expect(errors.getByTestId('hygiene-rule-loc_missing')).toBeVisible();
  await expect(section.getByTestId('hygiene-rule-wrong_host')).toBeVisible();
  await expect(section.getByTestId('hygiene-rule-lastmod_future')).toBeVisible();
  // Examples and fix on demand.
  await expect(relative.getByText('/relative-path')).toBeHidden();
  await relative.locator('summary').click();
  await expect(relative.getByText('/relative-path')).toBeVisible();
  await expect(relative.getByText(/absolute URL/)).toBeVisible();
  // The title is the rule's name for people; its code is a line under the fix.
  await expect(relative.locator('summary')).not.toContainText('loc_relative');
  await expect(relative.locator('p').filter({ hasText: /^Rule / })).toHaveText('Rule loc_relative');
  // Uploads read no robots.txt: the tab says that rule is not judged and how a new audit would judge it.
  const notJudged = section.getByTestId('hygiene-not-judged');
  await expect(notJudged).toContainText('URL disallowed by robots.txt');
  await expect(notJudged).toContainText("A new audit started from the site's address");

  // Files by dirt: the bad sitemap first, flagged (its 404s are on the prune list); the good one clean.
  const files = page.getByTestId('hygiene-files').getByRole('listitem');
  await expect(files).toHaveCount(2);
  await expect(files.first()).toContainText('squirrelscan-bad-sitemap-audit-rules.xml');
  await expect(files.first()).toContainText('Over 1 %');
  await expect(files.nth(1)).toContainText('0 of 5 entries');
  await expect(files.nth(1)).not.toContainText('Over 1 %');
  await expect(
    section.getByText('1 of 2 files has more than 1 % of its entries on the prune list.'),
  ).toBeVisible();
  await shoot(page, 'result');

  // Re-check: a new lint runs (the button waits meanwhile) and its result is shown.
  const lintUrl = `/api/v1/audits/${new URL(page.url()).pathname.split('/').at(-1)}/lint`;
  const lintNow = async () => (await (await page.request.get(lintUrl)).json()) as LintNow;
  const before = (await lintNow()).lint.id;
  await section.getByTestId('hygiene-recheck').click();
  await expect
    .poll(
      async () => {
        const now = await lintNow();
        return now.lint.id === before ? 'not started' : now.status;
      },
      { timeout: 30_000 },
    )
    .toBe('succeeded');
  await expect(section.getByTestId('hygiene-recheck')).toBeEnabled();
  await expect(errors.getByTestId('hygiene-rule-loc_relative')).toBeVisible();

  // Uploaded files have no URL of their own: the site URL they were judged against is guessed from their
  // first absolute entry, and a reviewer can give another (a refused one is said under its field).
  const site = section.getByTestId('hygiene-site-url');
  const siteField = site.getByLabel('Site URL of the uploaded files');
  await expect(site).toContainText('https://example.com/');
  await expect(site).toContainText('first absolute entry');
  await siteField.fill('ftp://example.com/');
  await site.getByRole('button', { name: 'Re-check with this site URL' }).click();
  await expect(site.getByText(/Site URL must be a full web address/)).toBeVisible();
  await expect(siteField).toHaveAttribute('aria-invalid', 'true');
  await siteField.fill('https://www.example.org/');
  await site.getByRole('button', { name: 'Re-check with this site URL' }).click();
  await expect(site.locator('code')).toHaveText('https://www.example.org/', { timeout: 30_000 });
  await expect(site).not.toContainText('first absolute entry');
  await expect(siteField).not.toHaveAttribute('aria-invalid', 'true');
  // The corrected set, regrouped by section, follows: its index lists the files at the site URL just
  // given, until one is typed (kept files stay where their index lists them).
  const builder = page.getByTestId('sitemap-set-builder');
  await builder.getByLabel(/Regroup by section/).check();
  const sections = builder.getByTestId('sitemap-set-sections');
  await expect(sections).toContainText('lists them at https://www.example.org/');
  await expect(builder.getByTestId('sitemap-set-download')).toHaveAttribute(
    'href',
    /[?&]base=https%3A%2F%2Fwww\.example\.org%2F/,
  );
  await shoot(page, 'site-url');
  await builder.getByLabel('Base URL (optional)').fill('https://cdn.example.com/maps/');
  await expect(sections).toContainText('lists them at https://cdn.example.com/maps/');
});
