// A host name that does not resolve (the reserved .invalid TLD never does), through the real routes and
// steps: a spot-check says the name does not resolve and what to check, never that robots.txt refused the
// page (its override could not help), and an audit fetching its sitemap there gives the same advice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getAudit } from '@/app/api/v1/audits/[id]/route';
import { GET as getRun } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/route';
import { POST as startRoute } from '@/app/api/v1/audits/[id]/spot-checks/route';
import { POST as createAudit } from '@/app/api/v1/audits/route';
import type { AuditDto } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { spotCheckRun } from './run';
import type { SpotCheckRunPage } from './schema';

const reviewer = await testCaller('reviewer');
const host = `nosuch-${randomUUID().slice(0, 8)}.invalid`;
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const DNS_ADVICE =
  /the host name does not resolve: check the spelling, DNS, or whether the site is reachable/;

let auditId = '';
beforeAll(async () => {
  const at = (p: string) => `https://${host}/blog/${p}`;
  auditId = await reconciledAuditOf('Unresolvable host', {
    sitemaps: { 's.xml': urlsetXml(['a', 'b', 'c'].map(at)) },
    crawl: ['a', 'b', 'c'].map((p) => JSON.stringify({ url: at(p), status: 404 })),
  });
});
afterAll(() => stopBoss());

describe('a host name that does not resolve', () => {
  it('gives each spot-checked row DNS advice, not the robots.txt override', async () => {
    const { rows } = await pool().query<{ id: number }>('SELECT id FROM findings WHERE audit_id = $1', [
      auditId,
    ]);
    expect(rows).toHaveLength(3);
    const url = `http://localhost/api/v1/audits/${auditId}/spot-checks`;
    const res = await startRoute(
      reviewer.request(url, { method: 'POST', body: JSON.stringify({ ids: rows.map((r) => r.id) }) }),
      ctx({ id: auditId }),
    );
    expect(res.status, await res.clone().text()).toBe(202);
    const { runId } = (await res.json()) as { runId: string };
    await runStep(spotCheckRun, 'select', { runId, attempt: 1 });
    await runStep(spotCheckRun, 'check', { runId, attempt: 1 });
    const page = (await (
      await getRun(reviewer.request(`${url}/${runId}`), ctx({ id: auditId, runId }))
    ).json()) as SpotCheckRunPage;
    expect(page.items).toHaveLength(3);
    for (const item of page.items) {
      expect(item.error?.code).toBe('network');
      expect(item.error?.message).toContain(item.url);
      expect(item.error?.message).toMatch(DNS_ADVICE);
      expect(item.error?.message).not.toMatch(/robots/i);
    }
  });

  it('gives an audit fetching its sitemap there the same advice', async () => {
    const res = await createAudit(
      reviewer.request('http://localhost/api/v1/audits', {
        method: 'POST',
        body: JSON.stringify({ name: 'Unresolvable sitemap', sitemapUrls: [`https://${host}/sitemap.xml`] }),
        headers: { 'content-type': 'application/json' },
      }),
      undefined,
    );
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await runAuditStep('ingest', id);
    const audit = (await (
      await getAudit(reviewer.request(`http://localhost/api/v1/audits/${id}`), ctx({ id }))
    ).json()) as AuditDto;
    const messages = audit.errors.map((e) => e.message).join('\n');
    expect(messages).toMatch(DNS_ADVICE);
    expect(messages).not.toMatch(/robots\.txt override/);
  });
});
