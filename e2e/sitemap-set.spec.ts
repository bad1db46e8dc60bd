// End to end: a reviewer approves a prune row (keyboard) and the add list (API), opens "Build corrected
// sitemap", reads the per-file change list of the default layout (the input's files) with its rename and
// unlisted-file warnings, then regroups by section, downloads the zip and finds in it what the decisions
// say: the pruned URL gone, the added URLs there with the crawl's time as lastmod, an index of every file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import yauzl from 'yauzl';
import { screenshot } from './screenshots';

const samples = path.resolve(import.meta.dirname, '..', 'public', 'samples');
const S = 'https://shop.example.com';
/** The tab the builder is in (hygiene-section.tsx). */
const TAB = 'Hygiene';

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

async function shoot(page: Page, name: string) {
  const panel = page.getByTestId('sitemap-set-builder');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing scrolls sideways at a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(
      true,
    );
    await screenshot(panel, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('approve rows, build the corrected sitemap, download and inspect the zip', async ({ page }) => {
  await page.goto('/audits/new');
  await page.getByLabel('Audit name').fill('Corrected set');
  // A name with a space: the set must rename the file (and say so).
  await page.getByLabel('Sitemap files').setInputFiles({
    name: 'sample sitemap.xml',
    mimeType: 'application/xml',
    buffer: readFileSync(path.join(samples, 'sample-sitemap.xml')),
  });
  await page.getByRole('radio', { name: /^A crawl export/ }).check();
  await page.getByLabel('Crawl export file').setInputFiles(path.join(samples, 'sample-crawl.jsonl'));
  await page.getByRole('button', { name: 'Create audit' }).click();
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  const auditId = new URL(page.url()).pathname.split('/').at(-1) as string;

  // The prune list's first row (the 404 old-news) approved by keyboard.
  await page.getByRole('tab', { name: 'Prune' }).click();
  const rows = page.getByTestId('finding-row');
  await expect(rows.first()).toContainText(`${S}/blog/old-news`);
  await page.keyboard.press('j');
  await page.keyboard.press('a');
  await expect(rows.first()).toHaveAttribute('data-decision', 'approved');
  // The whole add list approved through the API, as a script would.
  const origin = new URL(page.url()).origin;
  const decided = await page.request.post(`/api/v1/audits/${auditId}/decisions`, {
    headers: { origin },
    data: { decision: 'approved', filter: { list: 'add' } },
  });
  expect(decided.ok()).toBe(true);
  const addList = await (await page.request.get(`/api/v1/audits/${auditId}/findings?list=add`)).json();
  const added = (addList.items as { url: string }[]).map((item) => item.url);
  expect(added).toHaveLength(3);

  await page.getByRole('tab', { name: TAB, exact: true }).click();
  const panel = page.getByTestId('sitemap-set-builder');
  await expect(panel.getByRole('heading', { name: 'Build corrected sitemap' })).toBeVisible();
  const summary = panel.getByTestId('sitemap-set-summary');
  await expect(summary.getByRole('row', { name: /Removed/ })).toContainText('1');
  await expect(summary.getByRole('row', { name: /Added/ })).toContainText('3');
  // The default layout keeps the input's file: what changes in it, the additions' own file, and why
  // Search Console and robots.txt need updating.
  const changes = panel.getByTestId('sitemap-set-file');
  await expect(changes.filter({ hasText: 'sample-sitemap.xml' })).toContainText(
    /Changed.*1 removed; renamed from “sample sitemap\.xml”/,
  );
  await expect(changes.filter({ hasText: 'sitemap-added.xml' })).toContainText(/New file.*3 URLs added/);
  const warnings = panel.getByTestId('sitemap-set-warnings');
  await expect(warnings).toContainText('sample sitemap.xml → sample-sitemap.xml');
  await expect(warnings).toContainText('No index lists sitemap-added.xml');
  await shoot(page, 'sitemap-set-builder-input');

  await panel.getByLabel(/Regroup by section/).check();
  await expect(panel.getByText(/Removed by reason: HTTP 404 \(1\)\./)).toBeVisible();
  await expect(summary.getByRole('row', { name: /Declared entries/ })).toHaveText(/in 1 file$/);

  // Two URLs per file: the summary counts the files before anything is built.
  await panel.getByLabel('URLs per file').fill('2');
  await expect(panel.getByTestId('sitemap-set-sections')).toContainText(
    /blog-sitemap \(\d+ URLs, \d+ files\)/,
  );
  await panel.getByLabel('Base URL (optional)').fill('not a url');
  await expect(panel.getByText('Give an absolute http(s) URL, without a query.')).toBeVisible();
  await expect(panel.getByTestId('sitemap-set-download')).toHaveCount(0);
  await panel.getByLabel('Base URL (optional)').fill('https://cdn.example.com/maps/');
  await shoot(page, 'sitemap-set-builder');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByTestId('sitemap-set-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe('corrected-set-sitemap-set.zip');
  const files = await unzip(readFileSync(await download.path()));
  const names = [...files.keys()];
  expect(names).toContain('sitemap-index.xml');
  expect(names).toContain('summary.json');
  const maps = names.filter((n) => n.endsWith('.xml.gz'));
  expect(maps).toContain('pages-sitemap-1.xml.gz');
  const index = files.get('sitemap-index.xml')?.toString() ?? '';
  for (const name of maps) expect(index).toContain(`<loc>https://cdn.example.com/maps/${name}</loc>`);

  const xml = maps.map((n) => gunzipSync(files.get(n) as Buffer).toString()).join('\n');
  const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
  for (const text of maps.map((n) => gunzipSync(files.get(n) as Buffer).toString())) {
    expect(text.match(/<url>/g)?.length ?? 0).toBeLessThanOrEqual(2);
  }
  expect(locs).not.toContain(`${S}/blog/old-news`);
  expect(locs).toContain(`${S}/about`);
  for (const url of added) {
    expect(xml).toContain(`<url><loc>${url}</loc><lastmod>2026-11-27T09:00:00+00:00</lastmod></url>`);
  }
  const written = JSON.parse(files.get('summary.json')?.toString() ?? '{}');
  expect(written.removed).toEqual({ http_404: 1 });
  expect(written.added).toBe(3);
  expect(written.files).toHaveLength(maps.length);
});
