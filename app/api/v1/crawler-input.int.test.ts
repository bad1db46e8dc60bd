// `crawler` on POST /api/v1/audits through the real route handler: its defaults stored (the start URL
// resolved to the site root), its limits refused with the field named, and never beside a crawl export.
import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { GET as getOne } from './audits/[id]/route';
import { POST } from './audits/route';

afterAll(() => stopBoss());

const reviewer = await testCaller('reviewer');
const base = 'http://localhost/api/v1/audits';

async function post(body: FormData | object) {
  const init: RequestInit =
    body instanceof FormData
      ? { method: 'POST', body }
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await POST(reviewer.request(base, init), undefined);
  return { status: res.status, body: await res.json() };
}

async function storedCrawler(id: string) {
  const { rows } = await pool().query<{ options: { crawler?: unknown } }>(
    'SELECT options FROM audits WHERE id = $1',
    [id],
  );
  return rows[0]?.options.crawler;
}

describe('crawler on a new audit', () => {
  it('stores the defaults, with the start URL at the site root of the first sitemap URL', async () => {
    const res = await post({
      sitemapUrls: ['https://crawl-defaults.example/shop/sitemap.xml'],
      crawler: {},
    });
    expect(res.status).toBe(202);
    expect(await storedCrawler(res.body.id)).toEqual({
      mode: 'site',
      startUrl: 'https://crawl-defaults.example/',
      maxPages: 50_000,
      maxDepth: 10,
      concurrencyPerHost: 2,
      render: false,
    });
    const dto = await (
      await getOne(reviewer.request(`${base}/${res.body.id}`), {
        params: Promise.resolve({ id: res.body.id }),
      })
    ).json();
    expect(dto.crawl.crawler.settings.startUrl).toBe('https://crawl-defaults.example/');
    expect(dto.crawl.crawler.progress).toBeNull();
  });

  it('takes its JSON text in multipart, and keeps a given start URL and list mode', async () => {
    const form = new FormData();
    form.append('sitemapUrl', 'https://crawl-multipart.example/sitemap.xml');
    form.append('crawler', JSON.stringify({ mode: 'list', maxPages: 500, concurrencyPerHost: 8 }));
    const listed = await post(form);
    expect(listed.status).toBe(202);
    expect(await storedCrawler(listed.body.id)).toMatchObject({
      mode: 'list',
      maxPages: 500,
      concurrencyPerHost: 8,
    });

    const started = await post({
      sitemapUrls: ['https://crawl-multipart.example/sitemap.xml'],
      crawler: { startUrl: 'https://www.crawl-multipart.example/en/' },
    });
    expect(await storedCrawler(started.body.id)).toMatchObject({
      startUrl: 'https://www.crawl-multipart.example/en/',
    });
  });

  it('refuses a crawl export beside it, limits past their bounds and bad JSON, naming the field', async () => {
    const both = await post({
      sitemapUrls: ['https://crawl-both.example/sitemap.xml'],
      crawlUrl: 'https://files.example/crawl.jsonl',
      crawler: {},
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/^crawler: give either a crawl export .* not both/);

    const tooMany = new FormData();
    tooMany.append('sitemapUrl', 'https://crawl-limits.example/sitemap.xml');
    tooMany.append('crawler', JSON.stringify({ concurrencyPerHost: 9 }));
    const refused = await post(tooMany);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'crawler.concurrencyPerHost: at most 8 requests at once per host',
    );

    const unknown = new FormData();
    unknown.append('sitemapUrl', 'https://crawl-limits.example/sitemap.xml');
    unknown.append('crawler', '{"mode":"site",');
    const broken = await post(unknown);
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/^crawler is not valid JSON/);

    const json = await post({
      sitemapUrls: ['https://crawl-limits.example/s.xml'],
      crawler: { maxDepth: -1 },
    });
    expect(json.status).toBe(400);
  });

  it('asks for a start URL when the sitemaps were uploaded and the crawl follows links', async () => {
    const form = new FormData();
    form.append(
      'sitemap',
      new Blob(['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>']),
      's.xml',
    );
    form.append('crawler', JSON.stringify({ mode: 'site' }));
    const res = await post(form);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^crawler\.startUrl: the sitemaps were uploaded/);
  });
});
