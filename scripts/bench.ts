// `npm run bench`: ingest throughput through the real job path.
// Generates a 1,000,000-URL sitemap tree (an index over 20 gzip urlsets of 50,000 URLs) served over HTTP
// on 127.0.0.1, and a 1,000,000-row JSONL crawl export uploaded with the audit; queues the audit; runs
// one real worker process; reports URLs/s, crawl rows/s and the worker's peak RSS (VmHWM).
// Options (env): BENCH_URLS (default 1000000), BENCH_CRAWL_ROWS (default 1000000), BENCH_DIR (./bench-data).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { closeDb } from '@/lib/db/client';
import { enqueue, stopBoss } from '@/lib/jobs/queue';

const root = path.resolve(import.meta.dirname, '..');
const URLS = Number(process.env.BENCH_URLS ?? 1_000_000);
const CRAWL_ROWS = Number(process.env.BENCH_CRAWL_ROWS ?? 1_000_000);
const PER_FILE = 50_000;
const dir = path.resolve(process.env.BENCH_DIR ?? path.join(root, 'bench-data'));
const treeDir = path.join(dir, `tree-${URLS}`);
const crawlFile = path.join(dir, `crawl-${CRAWL_ROWS}.jsonl`);
const log = (message: string) => console.log(`[bench] ${message}`);

function pageUrl(i: number): string {
  return `https://bench.example.com/section-${i % 50}/item/${i}`;
}

function generateTree(): number {
  const files = Math.ceil(URLS / PER_FILE);
  if (existsSync(path.join(treeDir, 'done'))) return files;
  mkdirSync(treeDir, { recursive: true });
  log(`generating ${URLS.toLocaleString('en-US')} URLs in ${files} gzip files…`);
  for (let f = 0; f < files; f++) {
    const parts = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    ];
    for (let i = f * PER_FILE; i < Math.min(URLS, (f + 1) * PER_FILE); i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      parts.push(
        `<url><loc>${pageUrl(i)}</loc><lastmod>2026-10-${day}</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>\n`,
      );
    }
    parts.push('</urlset>\n');
    writeFileSync(path.join(treeDir, `sitemap-${f + 1}.xml.gz`), gzipSync(parts.join(''), { level: 6 }));
  }
  writeFileSync(path.join(treeDir, 'done'), String(files));
  return files;
}

async function generateCrawl(): Promise<void> {
  if (existsSync(`${crawlFile}.done`)) return;
  log(`generating ${CRAWL_ROWS.toLocaleString('en-US')} crawl rows…`);
  const out = createWriteStream(crawlFile);
  for (let i = 0; i < CRAWL_ROWS; i++) {
    // 90% overlap with the sitemap, 10% pages it never declares; a few 404s, redirects and noindex pages.
    const n = i % 10 === 9 ? URLS + i : i;
    const status = i % 97 === 0 ? 404 : i % 89 === 0 ? 301 : 200;
    const row = `{"url":"${pageUrl(n)}","status":${status},"canonical_url":"${pageUrl(n)}","indexable":${i % 83 !== 0},"crawled_at":"2026-11-01T00:00:00Z","depth":${i % 7}}\n`;
    if (!out.write(row)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  writeFileSync(`${crawlFile}.done`, '');
}

function serveTree(files: number): Promise<{ server: http.Server; indexUrl: string }> {
  const server = http.createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (name === 'sitemap-index.xml') {
      const origin = `http://${req.headers.host}`;
      const body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        Array.from(
          { length: files },
          (_, f) => `<sitemap><loc>${origin}/sitemap-${f + 1}.xml.gz</loc></sitemap>`,
        ).join('\n') +
        '\n</sitemapindex>\n';
      res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
      return;
    }
    const file = path.join(treeDir, path.basename(name));
    if (!/^sitemap-\d+\.xml\.gz$/.test(name) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        indexUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap-index.xml`,
      }),
    ),
  );
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function main() {
  const files = generateTree();
  await generateCrawl();
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  const { server, indexUrl } = await serveTree(files);

  const worker: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/worker.ts')],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: 'inherit',
    },
  );
  await new Promise((r) => setTimeout(r, 1500));

  const id = randomUUID();
  await insertAudit(id, 'benchmark', { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: indexUrl },
    { role: 'crawl', kind: 'upload', fileName: path.basename(crawlFile), storedPath: crawlFile },
  ]);
  const queuedAt = performance.now();
  await enqueue('ingest', { auditId: id, attempt: 1 });

  const marks: Record<string, number> = {};
  let audit = await getAudit(id);
  while (audit && !['succeeded', 'partial', 'failed'].includes(audit.status)) {
    if (!(audit.phase in marks)) marks[audit.phase] = performance.now();
    await new Promise((r) => setTimeout(r, 50));
    audit = await getAudit(id);
  }
  const doneAt = performance.now();
  if (!audit) throw new Error('the audit disappeared');
  const rss = peakRssMb(worker.pid as number);

  const sitemapStart = marks.sitemaps ?? marks.starting ?? queuedAt;
  const crawlStart = marks.crawl ?? doneAt;
  const sitemapSeconds = (crawlStart - sitemapStart) / 1000;
  const crawlSeconds = (doneAt - crawlStart) / 1000;
  const result = {
    date: new Date().toISOString(),
    status: audit.status,
    sitemapUrls: audit.sitemap.entries,
    sitemapFiles: audit.sitemap.files,
    sitemapSeconds: Number(sitemapSeconds.toFixed(2)),
    urlsPerSecond: Math.round(audit.sitemap.entries / sitemapSeconds),
    crawlRows: audit.crawl.rows,
    crawlSeconds: Number(crawlSeconds.toFixed(2)),
    rowsPerSecond: Math.round(audit.crawl.rows / crawlSeconds),
    totalSeconds: Number(((doneAt - queuedAt) / 1000).toFixed(2)),
    workerPeakRssMb: rss,
  };
  console.log(JSON.stringify(result, null, 2));
  log(`sitemap ingest: ${result.urlsPerSecond.toLocaleString('en-US')} URLs/s (target ≥ 100,000)`);
  log(`crawl ingest:   ${result.rowsPerSecond.toLocaleString('en-US')} rows/s (target ≥ 100,000)`);
  log(`worker peak RSS: ${rss} MB (target < 500 MB)`);
  writeFileSync(path.join(dir, 'last-result.json'), JSON.stringify(result, null, 2));

  worker.kill('SIGTERM');
  await once(worker, 'exit');
  server.close();
  await stopBoss();
  await closeDb();
  await database.stop();
}

await main();
