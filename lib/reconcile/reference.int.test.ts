// With the lenient profile on the playbook's JSONL format, our prune and add lists agree row for row
// (url, reason) with the classic reconcile script in ../shared/reference, apart from the documented
// differences (docs/reconciliation.md): the held list, no_response, blocked_by_robots, and keys with
// several crawl rows (which overwrite each other in the script).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { fixturesDir } from '@/lib/test-support/fixtures';
import { seededRandom } from '@/lib/test-support/random';
import { runAuditStep } from '@/lib/test-support/run-audit';

const script = path.resolve(fixturesDir, '..', 'reference', 'reconcile_sitemap.py');

interface Generated {
  sitemapXml: string;
  crawlLines: string[];
  /** Keys (lenient) that have more than one crawl row. */
  duplicatedCrawlKeys: Set<string>;
}

function lenientKey(url: string): string {
  const u = new URL(url);
  const p = u.pathname === '/' ? '/' : u.pathname.replace(/\/+$/, '');
  return `https://${u.host}${p}`;
}

function generate(): Generated {
  const rnd = seededRandom(20261130);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const sections = ['shop', 'blog', 'help', 'news'];
  const declared: string[] = [];
  const crawl: Record<string, unknown>[] = [];
  const crawlTime = '2026-11-01T00:00:00Z';
  for (let i = 0; i < 3000; i++) {
    const section = pick(sections);
    const host = rnd() < 0.1 ? 'WWW.Example.com' : 'www.example.com';
    const scheme = rnd() < 0.2 ? 'http' : 'https';
    const slash = rnd() < 0.3 ? '/' : '';
    const query = rnd() < 0.05 ? `?ref=${i}` : '';
    const loc = `${scheme}://${host}/${section}/page-${i}${slash}${query}`;
    const lastmod = rnd() < 0.05 ? '2026-11-20' : '2026-10-01'; // a few newer than the crawl → held
    declared.push(`<url><loc>${loc}</loc><lastmod>${lastmod}</lastmod></url>`);
    if (rnd() < 0.02) declared.push(`<url><loc>https://www.example.com/${section}/page-${i}/</loc></url>`); // same key again
    const crawled = `https://www.example.com/${section}/page-${i}`;
    const r = rnd();
    const row: Record<string, unknown> = {
      url: crawled,
      status: 200,
      canonical_url: crawled,
      indexable: true,
      crawled_at: crawlTime,
    };
    if (r < 0.15) continue; // unreached
    if (r < 0.2) row.status = pick([404, 410, 500, 503]);
    else if (r < 0.25)
      Object.assign(row, { status: pick([301, 302, 307, 308]), redirect_url: `${crawled}-new` });
    else if (r < 0.3) row.canonical_url = `https://www.example.com/${section}/canonical-${i % 50}`;
    else if (r < 0.35) row.indexable = false;
    else if (r < 0.37)
      row.status = 0; // no response: our no_response
    else if (r < 0.39) Object.assign(row, { status: 0, blocked_by_robots: true });
    crawl.push(row);
    if (rnd() < 0.02)
      crawl.push({ ...row, url: `http://www.example.com/${section}/page-${i}/`, status: 301 }); // equal key
  }
  for (let i = 0; i < 400; i++) {
    const url = `https://www.example.com/${pick(sections)}/undeclared-${i}`;
    const r = rnd();
    crawl.push({
      url,
      status: r < 0.8 ? 200 : pick([404, 301]),
      canonical_url: r > 0.7 && r < 0.8 ? 'https://www.example.com/shop/page-1' : url,
      indexable: r < 0.65 || r > 0.7,
      crawled_at: crawlTime,
    });
  }
  // A section the crawl never entered (held: section_not_crawled).
  for (let i = 0; i < 20; i++)
    declared.push(`<url><loc>https://www.example.com/archive/old-${i}</loc></url>`);

  const counts = new Map<string, number>();
  for (const row of crawl)
    counts.set(lenientKey(row.url as string), (counts.get(lenientKey(row.url as string)) ?? 0) + 1);
  return {
    sitemapXml: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${declared.join('\n')}\n</urlset>\n`,
    crawlLines: crawl.map((r) => JSON.stringify(r)),
    duplicatedCrawlKeys: new Set([...counts].filter(([, n]) => n > 1).map(([k]) => k)),
  };
}

function readCsv(file: string): [string, string][] {
  return readFileSync(file, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => {
      const at = line.lastIndexOf(',');
      return [line.slice(0, at).replace(/^"|"$/g, ''), line.slice(at + 1)] as [string, string];
    });
}

describe('agreement with the reference reconcile script (lenient profile)', () => {
  let data: Generated;
  let reference: { prune: [string, string][]; add: [string, string][] };
  let ours: { list: string; url: string; reason: string; key: string }[];

  beforeAll(async () => {
    expect(existsSync(script), `reference script expected at ${script}`).toBe(true);
    data = generate();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'reference-'));
    writeFileSync(path.join(dir, 'sitemap.xml'), data.sitemapXml);
    writeFileSync(path.join(dir, 'crawl.jsonl'), `${data.crawlLines.join('\n')}\n`);
    const out = path.join(dir, 'out');
    mkdirSync(out);
    execFileSync('python3', [script], {
      env: {
        ...process.env,
        SITEMAP_PATH: path.join(dir, 'sitemap.xml'),
        CRAWL_GRAPH_PATH: path.join(dir, 'crawl.jsonl'),
        OUT_DIR: out,
      },
      stdio: 'pipe',
    });
    reference = {
      prune: readCsv(path.join(out, 'prune_list.csv')),
      add: readCsv(path.join(out, 'add_list.csv')),
    };

    const id = randomUUID();
    await insertAudit(id, 'reference', { normalization: 'lenient' }, [
      { role: 'sitemap', kind: 'upload', fileName: 'sitemap.xml', storedPath: path.join(dir, 'sitemap.xml') },
      { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: path.join(dir, 'crawl.jsonl') },
    ]);
    await runAuditStep('ingest', id);
    await runAuditStep('reconcile', id);
    ours = (await pool().query('SELECT list, url, reason, key FROM findings WHERE audit_id = $1', [id])).rows;
  });

  it('produces the same prune list apart from the documented differences', () => {
    const differing = new Set(
      ours
        .filter((f) => f.list === 'held' || f.reason === 'no_response' || f.reason === 'blocked_by_robots')
        .map((f) => f.url),
    );
    const skip = (url: string) => differing.has(url) || data.duplicatedCrawlKeys.has(lenientKey(url));
    const theirs = reference.prune
      .filter(([url]) => !skip(url))
      .map((r) => r.join(' '))
      .sort();
    const mine = ours
      .filter((f) => f.list === 'prune' && !skip(f.url))
      .map((f) => `${f.url} ${f.reason}`)
      .sort();
    expect(mine).toEqual(theirs);
    // The comparison is not vacuous: most rows take part, and every difference category occurred.
    expect(mine.length).toBeGreaterThan(800);
    expect(ours.some((f) => f.reason === 'newer_than_crawl')).toBe(true);
    expect(ours.some((f) => f.reason === 'section_not_crawled')).toBe(true);
    expect(ours.some((f) => f.reason === 'no_response')).toBe(true);
    expect(ours.some((f) => f.reason === 'blocked_by_robots')).toBe(true);
    expect(data.duplicatedCrawlKeys.size).toBeGreaterThan(10);
  });

  it('holds as server_error exactly what the script prunes as http_5xx', () => {
    const script = new Map(reference.prune);
    const held = ours.filter((f) => f.reason === 'server_error' && !data.duplicatedCrawlKeys.has(f.key));
    expect(held.length).toBeGreaterThan(20);
    for (const f of held) expect(script.get(f.url), f.url).toMatch(/^http_5\d\d$/);
    const scriptServerErrors = reference.prune.filter(
      ([url, reason]) => /^http_5/.test(reason) && !data.duplicatedCrawlKeys.has(lenientKey(url)),
    );
    expect(held.length).toBe(scriptServerErrors.length);
  });

  it('produces the same add list apart from keys with several crawl rows', () => {
    const skip = (url: string) => data.duplicatedCrawlKeys.has(lenientKey(url));
    const theirs = reference.add
      .filter(([url]) => !skip(url))
      .map((r) => r.join(' '))
      .sort();
    const mine = ours
      .filter((f) => f.list === 'add' && !skip(f.url))
      .map((f) => `${f.url} ${f.reason}`)
      .sort();
    expect(mine).toEqual(theirs);
    expect(mine.length).toBeGreaterThan(100);
  });
});
