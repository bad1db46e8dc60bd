// GET /api/v1/sites/{id}/changes through its route handler, over the events of three real runs of one site:
// newest first, counts per type under the filter (not the type), each filter, paging, and a 404.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import type { SiteChangePage } from '@/lib/sites/schema';
import { testCaller } from '@/lib/test-support/auth';
import { readFixture } from '@/lib/test-support/fixtures';
import { MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { POST as createAudit } from './audits/route';
import { GET as changesRoute } from './sites/[id]/changes/route';

const viewer = await testCaller('viewer');
const reviewer = await testCaller('reviewer');
const host = `${randomUUID().slice(0, 8)}.feed.example`;
const at = (page: string) => `https://${host}/${page}`;

function run(pages: string[]): Promise<string> {
  return reconciledAuditOf(`feed ${host}`, {
    sitemaps: { 's.xml': urlsetXml(pages.map(at)) },
    crawl: [JSON.stringify({ url: at(''), status: 200 })],
  });
}

let siteId = '';
let second = '';
let third = '';

beforeAll(async () => {
  const first = await run(['a', 'b', 'c']);
  second = await run(['a', 'b', 'd', 'e']); // d, e added; c pending
  third = await run(['a', 'd', 'e', 'f']); // f added; b pending; c confirmed
  const { rows } = await pool().query<{ site_id: string }>('SELECT site_id FROM audits WHERE id = $1', [
    first,
  ]);
  siteId = rows[0]?.site_id as string;
});

async function feed(query = '', id = siteId): Promise<Response> {
  return changesRoute(viewer.request(`http://localhost/api/v1/sites/${id}/changes${query}`), {
    params: Promise.resolve({ id }),
  });
}

async function page(query = ''): Promise<SiteChangePage> {
  const res = await feed(query);
  expect(res.status).toBe(200);
  return res.json();
}

describe('GET /api/v1/sites/{id}/changes', () => {
  it('lists the events newest first with the counts per type', async () => {
    const body = await page();
    expect(body.items.map((c) => [c.type, c.url])).toEqual([
      ['url_removed_pending', at('b')],
      ['url_removed_confirmed', at('c')],
      ['url_added', at('f')],
      ['url_removed_pending', at('c')],
      ['url_added', at('e')],
      ['url_added', at('d')],
    ]);
    expect(body.counts).toEqual({
      url_added: 3,
      url_lastmod_changed: 0,
      url_removed_pending: 2,
      url_removed_confirmed: 1,
      url_moved: 0,
    });
    expect(body.items[0]).toMatchObject({ auditId: third, previousAuditId: second });
    expect(body.nextCursor).toBeNull();
  });

  it('filters by type (counts stay those of every type), run and URL part; since in the future is empty', async () => {
    const added = await page('?type=url_added');
    expect(added.items.map((c) => c.url)).toEqual([at('f'), at('e'), at('d')]);
    expect(added.counts.url_removed_pending).toBe(2);
    const ofSecond = await page(`?auditId=${second}`);
    expect(ofSecond.items.map((c) => c.url)).toEqual([at('c'), at('e'), at('d')]);
    expect(ofSecond.counts).toMatchObject({ url_added: 2, url_removed_pending: 1, url_removed_confirmed: 0 });
    const q = await page(`?q=${encodeURIComponent(`${host}/c`)}`);
    expect(q.items.map((c) => c.type)).toEqual(['url_removed_confirmed', 'url_removed_pending']);
    const later = await page(`?since=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(later.items).toEqual([]);
    expect(later.counts.url_added).toBe(0);
  });

  it('pages by cursor without repeats or gaps', async () => {
    const all = (await page()).items;
    const first = await page('?limit=4');
    expect(first.items).toEqual(all.slice(0, 4));
    const rest = await page(`?limit=4&cursor=${first.nextCursor}`);
    expect(rest.items).toEqual(all.slice(4));
    expect(rest.nextCursor).toBeNull();
    expect((await page('?cursor=9999999999999999999')).items).toEqual(all);
  });

  it('answers 404 for an unknown site and 400 for a bad filter', async () => {
    expect((await feed('', randomUUID())).status).toBe(404);
    expect((await feed('?type=url_gone')).status).toBe(400);
  });
});

// A real Ahrefs export of 74 sitemap URLs that redirect (308) within the site to other URLs; its host is
// replaced by one no other test uses. The site's next sitemap lists the targets instead of the old URLs:
// each old URL is a move to its target, not a pending removal.
describe('moves', () => {
  const moveHost = `ck-${randomUUID().slice(0, 8)}.example`;
  const text = readFixture('crawl-exports/ahrefs-cowboykimono-3xx-redirect-in-site.utf16le.tsv.csv')
    .toString('utf16le')
    .replaceAll('cowboykimono.com', moveHost);
  const crawl = Buffer.from(text, 'utf16le');
  const rows = text
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '');
  const cells = rows.map((line) => line.split('\t').map((cell) => cell.replace(/^"|"\s*$/g, '')));
  const moved = new Map(cells.map((c) => [c[1] as string, c[8] as string]));

  async function upload(locs: string[]): Promise<string> {
    const res = await createAudit(reviewerRequest(locs), undefined);
    expect(res.status, await res.clone().text()).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await runAuditStep('ingest', id);
    await runAuditStep('reconcile', id);
    await runAuditStep('site_history', id);
    return id;
  }

  function reviewerRequest(locs: string[]): Request {
    return reviewer.request('http://localhost/api/v1/audits', {
      method: 'POST',
      body: multipartBody(
        part('name', `moves ${moveHost}`),
        part('sitemap', urlsetXml(locs), 'sitemap.xml'),
        part('crawl', crawl, 'cowboykimono_3xx-redirect-in-site.csv'),
      ),
      headers: { 'content-type': MULTIPART },
    });
  }

  it('reports a URL the new crawl redirects to a URL the run adds as moved, with its target', async () => {
    expect(moved.size).toBe(74);
    const home = `https://${moveHost}/`;
    await upload([home, ...moved.keys()]);
    const second = await upload([home, ...new Set(moved.values())]);
    const { rows: site } = await pool().query<{ site_id: string }>(
      'SELECT site_id FROM audits WHERE id = $1',
      [second],
    );
    const res = await changesRoute(
      viewer.request(`http://localhost/api/v1/sites/${site[0]?.site_id}/changes?auditId=${second}&limit=500`),
      { params: Promise.resolve({ id: site[0]?.site_id as string }) },
    );
    const body = (await res.json()) as SiteChangePage;
    expect(body.counts).toMatchObject({ url_moved: 74, url_added: 73, url_removed_pending: 0 });
    const moves = body.items.filter((c) => c.type === 'url_moved');
    expect(new Map(moves.map((c) => [c.url, c.target]))).toEqual(moved);
    expect(body.items.filter((c) => c.type !== 'url_moved').every((c) => c.target === null)).toBe(true);
    // The move settled the old URLs: the site's state no longer holds them (no removal to come).
    const { rows: left } = await pool().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM site_urls WHERE site_id = $1 AND loc = ANY($2::text[])',
      [site[0]?.site_id, [...moved.keys()]],
    );
    expect(left[0]?.n).toBe(0);
  }, 60_000);
});
