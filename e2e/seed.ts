// An audit made through the API for a spec that tests something else on its page (the new-audit form is
// audits.spec's to test): the same multipart body the form sends with its defaults, then the audit's page,
// once the audit has succeeded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';

/** A file as setInputFiles takes it: a path, or a name, type and bytes. */
export type UploadFile = string | { name: string; mimeType: string; buffer: Buffer };

function blobOf(file: UploadFile): [Blob, string] {
  if (typeof file === 'string') {
    // The type a browser gives the file by its extension.
    const type = file.endsWith('.xml') ? 'application/xml' : file.endsWith('.gz') ? 'application/gzip' : '';
    return [new Blob([new Uint8Array(readFileSync(file))], { type }), path.basename(file)];
  }
  return [new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name];
}

export async function uploadAudit(
  page: Page,
  name: string,
  { sitemaps, crawl }: { sitemaps: UploadFile[]; crawl: UploadFile },
): Promise<string> {
  const form = new FormData();
  form.append('name', name);
  for (const file of sitemaps) form.append('sitemap', ...blobOf(file));
  form.append('crawl', ...blobOf(crawl));
  const created = await page.request.post('/api/v1/audits', {
    headers: { origin: String(test.info().project.use.baseURL) },
    multipart: form,
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/audits/${id}`);
  await expect(page.getByTestId('audit-status')).toHaveText(/succeeded/i, { timeout: 60_000 });
  return id;
}
