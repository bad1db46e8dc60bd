// The audit's site_history step: the outcome does not wait for the site's history (the follow-up the
// settling worker runs right after it, before the review indexes), an audit without a crawl export gets
// one too, and a history that comes after a run that finished later is left out instead of rewinding the
// site's state.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertAudit, type NewSource } from '@/lib/audits/mutations';
import { pool, transaction } from '@/lib/db/client';
import { settleSiteRun } from '@/lib/sites/settle';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'site-history-'));

/** An audit of `locs` (uploaded), with a one-page crawl export unless `crawl` is false; ingested only. */
async function ingested(host: string, pages: string[], crawl = true): Promise<string> {
  const id = randomUUID();
  const sitemap = path.join(scratch, `${id}.xml`);
  writeFileSync(sitemap, urlsetXml(pages.map((p) => `https://${host}/${p}`)));
  const sources: NewSource[] = [{ role: 'sitemap', kind: 'upload', fileName: 's.xml', storedPath: sitemap }];
  if (crawl) {
    const export_ = path.join(scratch, `${id}.jsonl`);
    writeFileSync(export_, JSON.stringify({ url: `https://${host}/`, status: 200 }));
    sources.push({ role: 'crawl', kind: 'upload', fileName: 'c.jsonl', storedPath: export_ });
  }
  await insertAudit(id, `history of ${host}`, { normalization: 'exact' }, sources);
  await runAuditStep('ingest', id);
  return id;
}

async function state(id: string) {
  const { rows } = await pool().query<{ status: string; step: string | null; site_id: string | null }>(
    'SELECT status::text, step, site_id FROM audits WHERE id = $1',
    [id],
  );
  return rows[0];
}

async function site(siteId: string) {
  const { rows } = await pool().query<{ last: string | null; urls: number }>(
    `SELECT last_complete_audit_id AS last, (SELECT count(*)::int FROM site_urls WHERE site_id = $1) AS urls
       FROM sites WHERE id = $1`,
    [siteId],
  );
  return rows[0];
}

const eventsOf = async (id: string) =>
  (await pool().query('SELECT type FROM site_changes WHERE audit_id = $1 ORDER BY type, url', [id])).rows.map(
    (r) => r.type,
  );

describe('the site_history step', () => {
  it('follows the outcome at once, in the worker that settled it, then hands on to the indexes', async () => {
    const host = `${randomUUID().slice(0, 8)}.history.example`;
    const id = await ingested(host, ['a', 'b']);
    await runAuditStep('reconcile', id);
    const settled = await state(id);
    expect(settled).toMatchObject({ status: 'succeeded', step: 'review_indexes' });
    expect(await site(settled?.site_id ?? '')).toEqual({ last: id, urls: 2 });
    // Written after the outcome was committed, not with it.
    const { rows } = await pool().query<{ after: boolean }>(
      'SELECT changes_applied_at >= finished_at AS after FROM audits WHERE id = $1',
      [id],
    );
    expect(rows[0]?.after).toBe(true);
    // Its queued job, coming later, finds nothing left to do.
    await runAuditStep('site_history', id);
    expect((await state(id))?.step).toBe('review_indexes');
  });

  it('writes the history of an audit without a crawl export, which has no indexes to build', async () => {
    const host = `${randomUUID().slice(0, 8)}.history.example`;
    const first = await ingested(host, ['a'], false);
    expect(await state(first)).toMatchObject({ status: 'succeeded', step: null });
    const second = await ingested(host, ['a', 'b'], false);
    expect(await eventsOf(second)).toEqual(['url_added']);
  });

  it('leaves out a history that comes after a run that finished later, instead of rewinding the state', async () => {
    const host = `${randomUUID().slice(0, 8)}.history.example`;
    await ingested(host, ['a'], false);
    const older = await ingested(host, ['a', 'old'], false);
    const newer = await ingested(host, ['a', 'new'], false);
    const siteId = (await state(newer))?.site_id ?? '';
    const before = await eventsOf(older);
    // The older run's history comes again, after the newer one's (its step retried after a worker died).
    await pool().query('UPDATE audits SET changes_applied_at = NULL WHERE id = $1', [older]);
    await transaction((client) => settleSiteRun(client, older, 'succeeded'));
    expect(await eventsOf(older)).toEqual(before);
    expect(await site(siteId)).toEqual({ last: newer, urls: 3 });
    const { rows } = await pool().query(
      'SELECT key, missing_since_audit_id AS missing FROM site_urls WHERE site_id = $1 ORDER BY key',
      [siteId],
    );
    expect(rows).toEqual([
      { key: `https://${host}/a`, missing: null },
      { key: `https://${host}/new`, missing: null },
      { key: `https://${host}/old`, missing: newer },
    ]);
  });
});
