// A site's Search Console gap per run (GET /api/v1/sites/{id}'s runs[].gapPercent): computed from the
// run's imports, kept while its Search Console data is unchanged (the site page polls every few seconds),
// and computed again when an import is added or removed.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { normalizeUrl } from '@/lib/urls/normalize';
import { getSite } from './data';

const host = `gap-${randomUUID().slice(0, 8)}.example`;
const at = (page: string) => `https://${host}/${page}`;
const pages = ['a', 'b', 'c', 'd'];

let auditId = '';
let siteId = '';

/** A succeeded import naming `notIndexed` of the pages not indexed (404) and the rest of `known` indexed. */
async function storeImport(notIndexed: string[], finishedAt: string, known = pages): Promise<string> {
  const id = randomUUID();
  await pool().query(
    `INSERT INTO gsc_imports (id, audit_id, status, phase, step, uploads, created_by, created_at, finished_at)
     VALUES ($1, $2, 'succeeded', 'done', NULL, '[]', 'Tess Tester', $3::timestamptz - interval '1 minute', $3)`,
    [id, auditId, finishedAt],
  );
  for (const [n, page] of known.entries()) {
    const gone = notIndexed.includes(page);
    await pool().query(
      `INSERT INTO gsc_url_states (import_id, export_index, line, audit_id, url, key, state, reason, bucket, source)
       VALUES ($1, 0, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        n + 2,
        auditId,
        at(page),
        normalizeUrl(at(page), 'exact'),
        gone ? 'not_indexed' : 'indexed',
        gone ? 'Not found (404)' : null,
        gone ? 'http_404' : null,
        gone ? 'drilldown' : 'performance',
      ],
    );
  }
  return id;
}

async function gapOfRun(): Promise<number | null | undefined> {
  const site = await getSite(siteId);
  return site?.runs.find((run) => run.id === auditId)?.gapPercent;
}

beforeAll(async () => {
  auditId = await reconciledAuditOf(`gap ${host}`, {
    sitemaps: { 's.xml': urlsetXml(pages.map(at)) },
    crawl: pages.map((page) => JSON.stringify({ url: at(page), status: 200 })),
  });
  const { rows } = await pool().query<{ site_id: string }>('SELECT site_id FROM audits WHERE id = $1', [
    auditId,
  ]);
  siteId = rows[0]?.site_id as string;
});

describe("a site run's Search Console gap", () => {
  it('is null without an import, then follows each import added or removed', async () => {
    expect(await gapOfRun()).toBeNull();
    const first = await storeImport(['a'], '2026-12-01T10:00:00Z');
    expect(await gapOfRun()).toBe(25);
    // Asked again with nothing new: the same answer (kept, not recomputed).
    expect(await gapOfRun()).toBe(25);
    // A newer import wins; the kept figure must not hide it.
    const second = await storeImport(['a', 'b', 'c'], '2026-12-01T11:00:00Z');
    expect(await gapOfRun()).toBe(75);
    await pool().query('DELETE FROM gsc_imports WHERE id = $1', [second]);
    expect(await gapOfRun()).toBe(25);
    await pool().query('DELETE FROM gsc_imports WHERE id = $1', [first]);
    expect(await gapOfRun()).toBeNull();
  });

  it('has no figure while the imports know under 10 % of the submitted URLs', async () => {
    // One page of the four known (25 %) is enough to judge; none known of them is not. The gap table
    // bands such a file "not enough data"; the trend must not plot it as a healthy 0 %.
    const none = await storeImport([], '2026-12-01T12:00:00Z', []);
    expect(await gapOfRun()).toBeNull();
    const one = await storeImport([], '2026-12-01T13:00:00Z', ['a']);
    expect(await gapOfRun()).toBe(0);
    await pool().query('DELETE FROM gsc_imports WHERE id = ANY($1::uuid[])', [[none, one]]);
  });
});
