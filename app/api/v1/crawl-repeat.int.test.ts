// "Confirmed across two crawls" needs two crawls that differ, through the real routes and steps: Run again
// reuses the uploaded crawl export byte for byte, which confirms nothing and says so (the audit's crawl
// summary and warning, the site's run); a re-export of the same crawl (other bytes, same crawl date) is no
// new evidence either; a crawl made a week later confirms the rows it still does not reach.
// The crawl is a real Screaming Frog export (fixture R1), its host replaced by one no other test uses.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditDto } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import type { SiteDetailDto } from '@/lib/sites/schema';
import { testCaller } from '@/lib/test-support/auth';
import { readFixture } from '@/lib/test-support/fixtures';
import { MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { GET as getAudit } from './audits/[id]/route';
import { POST as createAudit } from './audits/route';
import { GET as getSite } from './sites/[id]/route';
import { POST as runAgain } from './sites/[id]/runs/route';

const reviewer = await testCaller('reviewer');
const base = 'http://localhost/api/v1';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

const host = `r1-${randomUUID().slice(0, 8)}.example`;
const crawl = readFixture('crawl-exports/recon-ayrshire-internal_all.csv')
  .toString('utf8')
  .replaceAll('ayrshirefencinggroup.com', host);
/** The same crawl exported again without its last row: other bytes, the same crawl date. */
const reExported = crawl.trimEnd().split('\n').slice(0, -1).join('\n');
/** The crawl made a week later: every crawl time moved on by seven days. */
const nextWeek = crawl.replaceAll('2025-11-29 ', '2025-12-06 ');
/** What the crawl reached (its HTML pages answering 200) and three pages of the same sections it never did. */
const reached = ['', 'service/gates', 'service/fencing', 'project/wooden-fencing', 'contact'];
const unreached = ['service/driveways', 'project/fencing-project-one', 'project/decking-project-one'];
const sitemap = urlsetXml([...reached, ...unreached].map((p) => `https://${host}/${p}`));

async function audit(id: string): Promise<AuditDto> {
  const res = await getAudit(reviewer.request(`${base}/audits/${id}`), ctx(id));
  expect(res.status).toBe(200);
  return res.json();
}

async function finish(id: string): Promise<void> {
  await runAuditStep('ingest', id);
  await runAuditStep('reconcile', id);
  await runAuditStep('site_history', id);
}

/** Run again, reusing the crawl export or replacing it with `upload`; returns the new run, finished. */
async function again(siteId: string, upload?: string): Promise<string> {
  const init: RequestInit = upload
    ? {
        method: 'POST',
        body: multipartBody(part('crawl', upload, 'internal_all.csv')),
        headers: { 'content-type': MULTIPART },
      }
    : { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };
  const res = await runAgain(reviewer.request(`${base}/sites/${siteId}/runs`, init), ctx(siteId));
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await finish(id);
  return id;
}

/** Path → whether the row is confirmed across two crawls, over the run's unreached rows. */
async function confirmed(auditId: string): Promise<Record<string, boolean>> {
  const { rows } = await pool().query<{ url: string; confirmed: boolean }>(
    `SELECT url, signals @> ARRAY['unreached_confirmed'] AS confirmed FROM findings
      WHERE audit_id = $1 AND reason = 'unreached_by_crawl' ORDER BY url`,
    [auditId],
  );
  return Object.fromEntries(rows.map((r) => [r.url.slice(`https://${host}/`.length), r.confirmed]));
}

let first = '';
let siteId = '';

beforeAll(async () => {
  const res = await createAudit(
    reviewer.request(`${base}/audits`, {
      method: 'POST',
      body: multipartBody(
        part('name', 'R1 first crawl'),
        part('sitemap', sitemap, 'sitemap.xml'),
        part('crawl', crawl, 'internal_all.csv'),
      ),
      headers: { 'content-type': MULTIPART },
    }),
    undefined,
  );
  expect(res.status).toBe(202);
  first = ((await res.json()) as { id: string }).id;
  await finish(first);
  siteId = (await audit(first)).siteId ?? '';
  expect(siteId).not.toBe('');
});
afterAll(() => stopBoss());

describe('two-crawl confirmation', () => {
  it('stores what identifies the crawl: the hash of its bytes and its crawl date', async () => {
    const dto = await audit(first);
    expect(dto.crawl.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(dto.crawl.latestAt).toBe('2025-11-29T19:23:55.000Z');
    expect(dto.crawl.repeatOf).toBeNull();
    expect(await confirmed(first)).toEqual(Object.fromEntries(unreached.sort().map((p) => [p, false])));
  });

  it('confirms nothing when Run again repeats the same uploaded crawl, and says so', async () => {
    const rerun = await again(siteId);
    const dto = await audit(rerun);
    expect(dto.crawl.sha256).toBe((await audit(first)).crawl.sha256);
    expect(dto.crawl.repeatOf).toBe(first);
    expect(dto.warnings).toContainEqual({
      code: 'crawl_repeated',
      message: expect.stringMatching(/same crawl as the previous complete run .*byte for byte/),
    });
    expect(Object.values(await confirmed(rerun))).toEqual([false, false, false]);
    const res = await getSite(reviewer.request(`${base}/sites/${siteId}`), ctx(siteId));
    const detail = (await res.json()) as SiteDetailDto;
    expect(detail.runs.find((r) => r.id === rerun)?.crawlRepeatOf).toBe(first);
    expect(detail.runs.find((r) => r.id === first)?.crawlRepeatOf).toBeNull();
  });

  it('confirms nothing for a re-export of the same crawl (other bytes, same crawl date)', async () => {
    const rerun = await again(siteId, reExported);
    const dto = await audit(rerun);
    expect(dto.crawl.sha256).not.toBe((await audit(first)).crawl.sha256);
    expect(dto.crawl.repeatOf).not.toBeNull();
    expect(dto.warnings.find((w) => w.code === 'crawl_repeated')?.message).toMatch(/same crawl date/);
    expect(Object.values(await confirmed(rerun))).toEqual([false, false, false]);
  });

  it('confirms the rows a later crawl still does not reach', async () => {
    const rerun = await again(siteId, nextWeek);
    const dto = await audit(rerun);
    expect(dto.crawl.repeatOf).toBeNull();
    expect(dto.warnings.map((w) => w.code)).not.toContain('crawl_repeated');
    expect(await confirmed(rerun)).toEqual(Object.fromEntries(unreached.sort().map((p) => [p, true])));
  });
});
