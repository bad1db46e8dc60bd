// End to end: a reviewer imports Search Console exports into a reconciled audit from its page — the
// firstserveseattle folder's five files (an overview and a "Page with redirect" drilldown side by side),
// then dhmguide's Performance zip as Search Console downloads it — sees what each import covered and the
// files the zip held that were ignored, then a bad file's error naming the file and line.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { buildZip } from '@/lib/gsc/test-zip';
import { fixturePath } from '@/lib/test-support/fixtures';
import { openAuditTab } from './audit-tabs';
import { auditSpotSite, expectNoSidewaysScroll, shots } from './spot-site';

const folderFiles = (folder: string) =>
  readdirSync(fixturePath(`gsc/${folder}`)).map((name) => ({
    name,
    mimeType: 'text/csv',
    buffer: readFileSync(fixturePath(`gsc/${folder}/${name}`)),
  }));

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByTestId('gsc-imports')
      .screenshot({ path: path.join(shots, `gsc-import-${name}-${width}.png`) });
    if (width === 390) await expectNoSidewaysScroll(page, name);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('import Search Console exports: loose files, a zip, and a file that cannot be read', async ({
  page,
}) => {
  await auditSpotSite(page, 'Search Console import site');
  await openAuditTab(page, 'Search Console');
  const imports = page.getByTestId('gsc-imports');
  await expect(imports.getByText('No Search Console imports yet.')).toBeVisible();
  // The drop zone's file input, by its label.
  const files = imports.getByLabel('Search Console exports', { exact: true });
  const submit = imports.getByTestId('gsc-import-submit');
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

  const perf = folderFiles('dhmguide-performance');
  const zip = buildZip(perf.map((f) => ({ name: `dhmguide-performance/${f.name}`, data: f.buffer })));
  await files.setInputFiles({ name: 'dhmguide-Performance.zip', mimeType: 'application/zip', buffer: zip });
  await submit.click();
  await expect(imports.getByTestId('gsc-import')).toHaveCount(2);
  const second = imports.getByTestId('gsc-import').first();
  await expect(second.getByTestId('gsc-import-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(second.getByTestId('gsc-import-export')).toHaveText(['Performance: pages — 74 pages']);
  await second.getByText('6 files ignored').click();
  await expect(second.getByTestId('gsc-import-ignored')).toContainText('dhmguide-performance/Queries.csv');
  await shoot(page, 'imported');

  await files.setInputFiles({
    name: 'Broken table.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'URL,Last crawled\nhttps://example.com/a,2025-01-31\nhttps://example.com/b,last week\n',
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
