// Benchmark inputs, generated once and cached: a sitemap tree (index + gzip urlsets of 50,000 URLs),
// the same URLs as one gzip file (for the reference script), and a JSONL crawl export whose rows
// make every declared URL a finding with a spread of reasons, plus undeclared pages for the add list.
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGzip } from 'node:zlib';

export const PER_FILE = 50_000;

export function pageUrl(i: number): string {
  return `https://bench.example.com/section-${i % 50}/item/${i}`;
}

function urlXml(i: number): string {
  const day = String((i % 28) + 1).padStart(2, '0');
  return `<url><loc>${pageUrl(i)}</loc><lastmod>2026-10-${day}</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n`;
}

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

async function writeGzip(file: string, from: number, to: number): Promise<void> {
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(file);
  gzip.pipe(out);
  gzip.write(HEAD);
  let chunk = '';
  for (let i = from; i < to; i++) {
    chunk += urlXml(i);
    if (chunk.length > 1 << 20) {
      if (!gzip.write(chunk)) await once(gzip, 'drain');
      chunk = '';
    }
  }
  gzip.end(`${chunk}</urlset>\n`);
  await once(out, 'finish');
}

export interface BenchInputs {
  treeDir: string;
  files: number;
  singleSitemap: string;
  crawlFile: string;
}

export async function generateInputs(
  dir: string,
  urls: number,
  crawlRows: number,
  log: (m: string) => void,
): Promise<BenchInputs> {
  const treeDir = path.join(dir, `tree-${urls}`);
  const files = Math.ceil(urls / PER_FILE);
  const singleSitemap = path.join(dir, `sitemap-${urls}.xml.gz`);
  const crawlFile = path.join(dir, `crawl-v2-${urls}-${crawlRows}.jsonl`);
  if (!existsSync(path.join(treeDir, 'done'))) {
    log(`generating ${urls.toLocaleString('en-US')} URLs in ${files} gzip files…`);
    mkdirSync(treeDir, { recursive: true });
    for (let f = 0; f < files; f++) {
      await writeGzip(
        path.join(treeDir, `sitemap-${f + 1}.xml.gz`),
        f * PER_FILE,
        Math.min(urls, (f + 1) * PER_FILE),
      );
    }
    writeFileSync(path.join(treeDir, 'done'), String(files));
  }
  if (!existsSync(`${singleSitemap}.done`)) {
    log('generating the single-file copy for the reference script…');
    await writeGzip(singleSitemap, 0, urls);
    writeFileSync(`${singleSitemap}.done`, '');
  }
  if (!existsSync(`${crawlFile}.done`)) {
    log(`generating ${crawlRows.toLocaleString('en-US')} crawl rows…`);
    const out = createWriteStream(crawlFile);
    const declaredRows = Math.min(urls, Math.round(crawlRows * 0.8));
    let written = 0;
    for (let i = 0; written < crawlRows; i++) {
      // Declared pages: 2 in 10 left uncrawled (unreached); the rest answer with a spread of problems.
      const declared = i < urls && written < declaredRows;
      const n = declared ? i : urls + i;
      const kind = i % 10;
      if (declared && kind < 2) continue;
      const row: Record<string, unknown> = {
        url: pageUrl(n),
        status: 200,
        canonical_url: pageUrl(n),
        indexable: true,
      };
      if (declared) {
        if (kind === 2) row.status = 404;
        else if (kind === 3) row.status = 410;
        else if (kind === 4) Object.assign(row, { status: 301, redirect_url: pageUrl(n + 1) });
        else if (kind === 5) row.canonical_url = pageUrl(n + 1);
        else if (kind === 6) row.indexable = false;
        else if (kind === 7) row.status = 503;
        else if (kind === 8) Object.assign(row, { status: 302, redirect_url: pageUrl(0) });
        else row.status = 0;
      }
      row.crawled_at = '2026-11-01T00:00:00Z';
      row.depth = i % 7;
      if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
      written++;
    }
    out.end();
    await once(out, 'finish');
    writeFileSync(`${crawlFile}.done`, '');
  }
  return { treeDir, files, singleSitemap, crawlFile };
}
