// Held rows through the real route handlers, on real files: no bulk approval includes them (by filter,
// "approve confirmed", a selection of several rows), and the export never offers a replacement that does
// not answer 200.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { GET as preview } from './audits/[id]/decisions/preview/route';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as exportFindings } from './audits/[id]/export/route';

const reviewer = await testCaller('reviewer', 'Ana');
const base = 'http://localhost/api/v1/audits';
let auditId = '';
const ctx = () => ({ params: Promise.resolve({ id: auditId }) });

async function post(body: unknown) {
  const res = await decide(
    reviewer.request(`${base}/${auditId}/decisions`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
    ctx(),
  );
  return { status: res.status, body: await res.json() };
}

async function heldIds(reason?: string): Promise<number[]> {
  const { rows } = await pool().query(
    `SELECT id FROM findings WHERE audit_id = $1 AND list = 'held' ${reason ? 'AND reason = $2' : ''} ORDER BY id`,
    reason ? [auditId, reason] : [auditId],
  );
  return rows.map((r) => r.id as number);
}

beforeAll(async () => {
  // R1 (Conwon99/GlenHaus): the www sitemap, and the Screaming Frog crawl whose www URLs 301 to the apex
  // while the apex pages name the www URLs as canonical; it reached 9 of the 79 declared URLs.
  auditId = randomUUID();
  await insertAudit(auditId, 'held rows', { normalization: 'exact' }, [
    {
      role: 'sitemap',
      kind: 'upload',
      fileName: 'sitemap.xml',
      storedPath: fixturePath('xml/recon-ayrshire-sitemap.xml'),
    },
    {
      role: 'crawl',
      kind: 'upload',
      fileName: 'internal_all.csv',
      storedPath: fixturePath('crawl-exports/recon-ayrshire-internal_all.csv'),
    },
  ]);
  await runAuditStep('ingest', auditId);
  await runAuditStep('reconcile', auditId);
});

describe('held rows are never approved in bulk', () => {
  it('holds the loops (the home page among them) and what the mismatched crawl never reached', async () => {
    expect(await heldIds('canonical_conflict')).toHaveLength(9);
    expect(await heldIds('crawl_mismatch')).toHaveLength(70);
  });

  it('refuses an approval by filter, and its preview says nothing would change', async () => {
    const res = await post({ decision: 'approved', filter: { list: 'held', reason: 'canonical_conflict' } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/would include 9 held rows.*never approved in bulk/);
    const shown = await preview(
      reviewer.request(`${base}/${auditId}/decisions/preview?list=held&decision=approved`),
      ctx(),
    );
    expect(await shown.json()).toMatchObject({ willChange: 0, willSkip: 79, alreadySet: 0 });
    // Rejecting by filter is a reviewer's call, and is not refused.
    const rejectPreview = await preview(
      reviewer.request(`${base}/${auditId}/decisions/preview?list=held&decision=rejected`),
      ctx(),
    );
    expect(await rejectPreview.json()).toMatchObject({ willChange: 79 });
  });

  it('refuses "approve confirmed" on the held list (the filter narrowed to confirming verdicts)', async () => {
    const res = await post({ decision: 'approved', filter: { list: 'held', verdict: 'confirming' } });
    // No row has a verdict yet, and still the request is refused: what it would approve is held.
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/over the held list.*never approved in bulk/);
    // With an override (decided rows too), the same filter over the held list is refused.
    const all = await post({ decision: 'approved', filter: { list: 'held' }, override: true });
    expect(all.status).toBe(409);
  });

  it('refuses a selection of several rows that includes held ones, approves one held row picked alone', async () => {
    const [first, second] = await heldIds('canonical_conflict');
    expect((await post({ decision: 'approved', ids: [first, second] })).status).toBe(409);
    expect(await post({ decision: 'approved', ids: [first] })).toEqual({
      status: 200,
      body: { updated: 1, skipped: 0, unchanged: 0 },
    });
    const { rows } = await pool().query(
      `SELECT count(*)::int AS n FROM findings WHERE audit_id = $1 AND decision = 'approved'`,
      [auditId],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('the export never offers a replacement that does not answer 200', () => {
  it('leaves replace_with empty on the loops (their redirect target canonicalises back)', async () => {
    const res = await exportFindings(
      reviewer.request(`${base}/${auditId}/export?list=held&decision=all&format=jsonl`),
      ctx(),
    );
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(79);
    expect(lines.filter((l) => l.replace_with !== null)).toEqual([]);
    const home = lines.find((l) => l.url === 'https://www.ayrshirefencinggroup.com/');
    // Its redirect target answers 200, but canonicalises back: shown, never offered.
    expect(home).toMatchObject({ reason: 'canonical_conflict', replace_with: null, target_status: 200 });
  });
});
