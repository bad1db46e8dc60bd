// The audit page's first screen on a warm server (BENCH_PAGE_ONLY=1): every read it makes, through the
// real route handlers as the browser asked for them before the page read its data itself (audit, then
// the findings page, the per-file chart, the reason chips, the spot-check runs and the sitemap files at
// once), and the server-side read that now comes with the HTML (loadAuditPage): median and p95 of each.

import { loadAuditPage } from '@/app/(app)/audits/[id]/page-data';
import { GET as byFileRoute } from '@/app/api/v1/audits/[id]/findings/by-file/route';
import { GET as reasonsRoute } from '@/app/api/v1/audits/[id]/findings/reasons/route';
import { GET as findingsRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { GET as auditRoute } from '@/app/api/v1/audits/[id]/route';
import { GET as sitemapsRoute } from '@/app/api/v1/audits/[id]/sitemaps/route';
import { GET as spotChecksRoute } from '@/app/api/v1/audits/[id]/spot-checks/route';
import { firstNonEmptyList } from '@/components/findings/review-words';
import { getAudit } from '@/lib/audits/data';
import { SITEMAP_PAGE_SIZE } from '@/lib/audits/sitemap-pages';
import { filterOf, findingQueryFromSearchParams, PAGE_SIZE, toSearchParams } from '@/lib/findings/format';
import { reasonCountsHref } from '@/lib/findings/links';
import { testCaller } from '@/lib/test-support/auth';
import { percentile } from './findings';

type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

interface Timing {
  p50Ms: number;
  p95Ms: number;
}

function summarise(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50Ms: Number(percentile(sorted, 50).toFixed(1)),
    p95Ms: Number(percentile(sorted, 95).toFixed(1)),
  };
}

/** `runs` timed rounds (after `warm` untimed ones) of the first screen of a reconciled audit. */
export async function measureAuditPage(auditId: string, runs = 20, warm = 3) {
  const audit = await getAudit(auditId);
  if (!audit?.findings) throw new Error('the audit has no findings');
  const caller = await testCaller('viewer', 'benchmark');
  const view = findingQueryFromSearchParams(new URLSearchParams(), firstNonEmptyList(audit.findings));
  const page = toSearchParams(view);
  page.set('limit', String(PAGE_SIZE));
  const base = `http://bench/api/v1/audits/${auditId}`;
  const requests: [string, Route, string][] = [
    ['findings page', findingsRoute, `${base}/findings?${page}`],
    ['findings by file', byFileRoute, `${base}/findings/by-file`],
    ['reason counts', reasonsRoute, `http://bench${reasonCountsHref(auditId, filterOf(view))}`],
    ['spot-check runs', spotChecksRoute, `${base}/spot-checks`],
    ['sitemap files', sitemapsRoute, `${base}/sitemaps?limit=${SITEMAP_PAGE_SIZE}`],
  ];
  const call = async (route: Route, url: string): Promise<number> => {
    const started = performance.now();
    const res = await route(caller.request(url), { params: Promise.resolve({ id: auditId }) });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - started;
  };

  const each: Record<string, number[]> = { audit: [] };
  for (const [name] of requests) each[name] = [];
  const chained: number[] = [];
  const seeded: number[] = [];
  for (let round = 0; round < warm + runs; round++) {
    const isTimed = round >= warm;
    // Each request alone, one after another.
    const auditMs = await call(auditRoute, base);
    const alone: number[] = [];
    for (const [, route, url] of requests) alone.push(await call(route, url));
    // As the page used to ask: the audit, then the rest at once once it had rendered.
    const started = performance.now();
    await call(auditRoute, base);
    await Promise.all(requests.map(([, route, url]) => call(route, url)));
    const chainMs = performance.now() - started;
    // As it asks now: the server reads the seed while it renders the HTML.
    const seedStarted = performance.now();
    await loadAuditPage(auditId, new URLSearchParams());
    const seedMs = performance.now() - seedStarted;
    if (!isTimed) continue;
    each.audit?.push(auditMs);
    for (const [i, [name]] of requests.entries()) each[name]?.push(alone[i] ?? 0);
    chained.push(chainMs);
    seeded.push(seedMs);
  }
  return {
    runs,
    findings: audit.findings.prune.total + audit.findings.add.total + audit.findings.held.total,
    sitemapFiles: audit.sitemap.files,
    requests: Object.fromEntries(Object.entries(each).map(([name, samples]) => [name, summarise(samples)])),
    /** Audit, then the other five at once: what the browser waited for before the seed (network aside). */
    beforeAuditThenParallel: summarise(chained),
    /** The seed's reads on the server (audit, then by-file, page, chips and runs at once). */
    withSeedServerReads: summarise(seeded),
  };
}
