// End to end: a reviewer imports Search Console exports into an audit of firstserveseattle.com (its real
// drill-down URLs as the sitemap) from its page — the firstserveseattle folder's five files (an overview
// and a "Page with redirect" drilldown side by side) — sees what the import covered; dhmguide's
// Performance zip is refused as another site's, naming the host; a lone Table.csv is refused naming what is
// missing, then imported under the issue chosen in the form; then a bad file's error names the file and line.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { buildZip } from '@/lib/gsc/test-zip';
import { fixturePath } from '@/lib/test-support/fixtures';
import { openAuditTab } from './audit-tabs';
import { screenshot } from './screenshots';
import { uploadAudit } from './seed';
import { expectNoSidewaysScroll } from './spot-site';

const folderFiles = (folder: string) =>
  readdirSync(fixturePath(`gsc/${folder}`)).map((name) => ({
    name,
    mimeType: 'text/csv',
    buffer: readFileSync(fixturePath(`gsc/${folder}/${name}`)),
  }));

/** firstserveseattle's URLs as its drill-down lists them, made its sitemap. */
const fssTable = readFileSync(fixturePath('gsc/firstserveseattle-pages-report/Table.csv'), 'utf8');
const fssUrls = fssTable
  .split(/\r?\n/)
  .slice(1)
  .map((line) => line.split(',')[0]?.trim() ?? '')
  .filter((u) => u.startsWith('http'));
const fssSitemap = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${fssUrls
  .map((u) => `<url><loc>${u}</loc></url>`)
  .join('')}</urlset>`;

async function auditOfFirstServeSeattle(page: Page): Promise<void> {
  const crawl = JSON.stringify({ url: 'https://firstserveseattle.com/', status: 200, indexable: true });
  await uploadAudit(page, 'Search Console import site', {
    sitemaps: [{ name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(fssSitemap) }],
    crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(crawl) },
  });
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page.getByTestId('gsc-imports'), `gsc-import-${name}-${width}`);
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('import Search Console exports: loose files, refusals (another site, a lone table), a bad file', async ({
  page,
}) => {
  await auditOfFirstServeSeattle(page);
  await openAuditTab(page, 'Search Console');
  const imports = page.getByTestId('gsc-imports');
  await expect(imports.getByText('No Search Console imports yet.')).toBeVisible();
  // The drop zone's file input, by its label.
  const files = imports.getByLabel('Search Console exports', { exact: true });
  const submit = imports.getByTestId('gsc-import-submit');
  const refused = imports.getByRole('alert');
  await expect(submit).toBeDisabled();

  await files.setInputFiles(folderFiles('firstserveseattle-pages-report'));
  await expect(submit).toHaveText('Import 5 files');
  await submit.click();
  const first = imports.getByTestId('gsc-import').first();
  await expect(first.getByTestId('gsc-import-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(first.getByTestId('gsc-import-export')).toHaveText([
    /^Drilldown: Page with redirect — All known pages — 29 URLs/,
    /^Page indexing overview — 4 reasons/,
  ]);
  await expect(first).toContainText('Rita Reviewer');
  // The import lists Metadata.csv and Chart.csv: the overview says they are the drilldown's, not "no …".
  await expect(first).toContainText('Metadata.csv belongs to the drilldown (Page with redirect)');
  await expect(first).not.toContainText('no Metadata.csv');
  await expect(first).not.toContainText('no Chart.csv');
  await expect(submit).toBeDisabled();

  // Another site's export (dhmguide's Performance zip) is refused, naming the host; nothing is imported.
  const perf = folderFiles('dhmguide-performance');
  const zip = buildZip(perf.map((f) => ({ name: `dhmguide-performance/${f.name}`, data: f.buffer })));
  await files.setInputFiles({ name: 'dhmguide-Performance.zip', mimeType: 'application/zip', buffer: zip });
  await submit.click();
  await expect(refused).toContainText('The files could not be imported');
  await expect(refused).toContainText(
    'Pages.csv line 2: its URLs belong to another site: www.dhmguide.com (72 URLs)',
  );
  await expect(refused).toContainText("this audit's sitemaps declare firstserveseattle.com");
  await expect(imports.getByTestId('gsc-import')).toHaveCount(1);
  await shoot(page, 'refused-site');
  await imports.getByRole('button', { name: 'Remove dhmguide-Performance.zip' }).click();

  // A lone Table.csv: refused until its issue is named, then imported under it.
  const table = folderFiles('firstserveseattle-pages-report').filter((f) => f.name === 'Table.csv');
  await files.setInputFiles(table);
  await submit.click();
  await expect(refused).toContainText(
    'Table.csv: a drill-down table without its Metadata.csv does not say which issue',
  );
  await expect(imports.getByTestId('gsc-import')).toHaveCount(1);
  await imports.getByLabel('Issue of a lone Table.csv').selectOption('Page with redirect');
  await submit.click();
  await expect(imports.getByTestId('gsc-import')).toHaveCount(2);
  const lone = imports.getByTestId('gsc-import').first();
  await expect(lone.getByTestId('gsc-import-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(lone.getByTestId('gsc-import-export')).toContainText(
    'Drilldown: Page with redirect — 29 URLs',
  );
  await expect(lone).toContainText('the issue was named on import (Page with redirect)');
  await expect(refused).toHaveCount(0);
  await shoot(page, 'imported');

  await files.setInputFiles({
    name: 'Broken table.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'URL,Last crawled\nhttps://firstserveseattle.com/a,2025-01-31\nhttps://firstserveseattle.com/b,last week\n',
    ),
  });
  await submit.click();
  await expect(imports.getByTestId('gsc-import')).toHaveCount(3);
  const failed = imports.getByTestId('gsc-import').first();
  await expect(failed.getByTestId('gsc-import-status')).toHaveText(/failed/i, { timeout: 60_000 });
  await expect(failed.getByTestId('gsc-import-problems')).toContainText('Broken table.csv line 3');
  await expect(failed.getByTestId('gsc-import-problems')).toContainText("found 'last week'");
  // The imports before it are as they were.
  await expect(imports.getByTestId('gsc-import').nth(1).getByTestId('gsc-import-status')).toHaveText(
    /succeeded/i,
  );
  await shoot(page, 'failed');
});
