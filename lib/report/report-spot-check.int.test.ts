// The shared report's "Live spot-check": its figures, rows and per-row verdicts come from the
// audit's latest finished run (not an older one, not a running or failed one, not another audit's), on
// the page and in the PDF, with the stale-crawl warning in the app's words; an audit never checked says so.
import { randomUUID } from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import SharedReportPage from '@/app/r/[token]/page';
import { createShare, createUser } from '@/lib/auth/mutations';
import { pool } from '@/lib/db/client';
import { type SpotCheckSummary, summarize } from '@/lib/spot-check/stats';
import type { Hop, Verdict } from '@/lib/spot-check/types';
import { pdfText } from '@/lib/test-support/pdf-text';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { latestFinishedSpotCheck, verdictsOf } from './data';
import { buildReportPdf } from './pdf';
import { loadPdfReport, PDF_ROWS_PER_REASON } from './pdf-data';
import { shareText } from './pdf-spot-check';
import { loadReportPage, openShare, REPORT_SPOT_ROWS } from './shared';

const STARTER = 'Sam Starter-Person';

/** 220 declared URLs: the even ones crawled healthy, i % 4 = 1 crawled 404 (http_404), i % 4 = 3 never
 * crawled (unreached_by_crawl): 110 prune rows. */
async function audit(name: string, host: string): Promise<string> {
  const declared: string[] = [];
  const crawl: string[] = [];
  for (let i = 1; i <= 220; i++) {
    const url = `https://${host}/p/${i}`;
    declared.push(url);
    const status = i % 2 === 0 ? 200 : i % 4 === 1 ? 404 : null;
    if (status !== null) crawl.push(JSON.stringify({ url, status, crawled_at: '2026-11-01T00:00:00Z' }));
  }
  return reconciledAuditOf(name, { sitemaps: { 's.xml': urlsetXml(declared) }, crawl });
}

interface Finding {
  id: number;
  list: 'prune' | 'add' | 'held';
  reason: string;
  url: string;
}

interface Item {
  finding: Finding;
  verdict: Verdict;
  chain: Hop[];
  finalStatus: number | null;
}

const hop = (url: string, status: number, location: string | null = null): Hop => ({ url, status, location });

/** A run of `auditId` with these items, stored as the check step stores them, in the given state. */
async function run(
  auditId: string,
  items: Item[],
  state: { status: string; hoursAgo: number; finished: boolean },
): Promise<{ id: string; summary: SpotCheckSummary }> {
  const id = randomUUID();
  const summary = summarize(
    items.map((i) => ({
      list: i.finding.list,
      reason: i.finding.reason,
      verdict: i.verdict,
      chain: i.chain,
      finalStatus: i.finalStatus,
    })),
  );
  await pool().query(
    `INSERT INTO spot_check_runs (id, audit_id, status, phase, request, created_by, created_at, finished_at, summary)
     VALUES ($1, $2, $3, 'done', '{"sample":50,"seed":1,"includeAdd":false,"ignoreRobots":false}', $4,
             now() - make_interval(hours => $5), CASE WHEN $6 THEN now() - make_interval(hours => $5) + interval '5 minutes' END, $7)`,
    [id, auditId, state.status, STARTER, state.hoursAgo, state.finished, JSON.stringify(summary)],
  );
  await pool().query(
    `INSERT INTO spot_check_items (run_id, finding_id, list, reason, url, chain, final_url, final_status,
       verdict, explanation, noindex, ms, checked_at)
     SELECT $1::uuid, f.id, f.list, f.reason, f.url, f.chain, f.url, f.status, f.verdict, 'explained: ' || f.verdict,
            false, 12, now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::int[], $8::text[])
            AS f(id, list, reason, url, chain, status, verdict)`,
    [
      id,
      items.map((i) => i.finding.id),
      items.map((i) => i.finding.list),
      items.map((i) => i.finding.reason),
      items.map((i) => i.finding.url),
      items.map((i) => JSON.stringify(i.chain)),
      items.map((i) => i.finalStatus),
      items.map((i) => i.verdict),
    ],
  );
  return { id, summary };
}

/** The latest run's answers: 30 of the 404s are back (contradicted, 30 of 105 checked: stale), the rest
 * still 404; of the unreached rows 5 gave no answer, 10 are live orphans, 40 redirect to a 404 (dead). */
function latestItems(findings: Finding[]): Item[] {
  const notFound = findings.filter((f) => f.reason === 'http_404');
  const unreached = findings.filter((f) => f.reason === 'unreached_by_crawl');
  return [
    ...notFound.map((finding, i): Item => {
      if (i < 30)
        return { finding, verdict: 'contradicted', chain: [hop(finding.url, 200)], finalStatus: 200 };
      return { finding, verdict: 'confirmed', chain: [hop(finding.url, 404)], finalStatus: 404 };
    }),
    ...unreached.map((finding, i): Item => {
      if (i < 5) return { finding, verdict: 'error', chain: [], finalStatus: null };
      if (i < 15)
        return { finding, verdict: 'orphan_live', chain: [hop(finding.url, 200)], finalStatus: 200 };
      return {
        finding,
        verdict: 'dead',
        chain: [hop(finding.url, 301, '/gone'), hop('https://a.example/gone', 404)],
        finalStatus: 404,
      };
    }),
  ];
}

const every = (findings: Finding[], verdict: Verdict): Item[] =>
  findings.map((finding) => ({ finding, verdict, chain: [hop(finding.url, 410)], finalStatus: 410 }));

let alphaId = '';
let alphaToken = '';
let quietToken = '';
let findings: Finding[] = [];
let latest: { id: string; summary: SpotCheckSummary };
let otherRuns: string[] = [];
/** finding id → the latest run's verdict */
let expected = new Map<number, Verdict>();

beforeAll(async () => {
  const [a, b, quiet] = await Promise.all([
    audit('Checked audit', 'a.example'),
    audit('Other audit', 'b.example'),
    audit('Never checked', 'q.example'),
  ]);
  alphaId = a;
  const { rows } = await pool().query<Finding>(
    'SELECT id, list, reason, url FROM findings WHERE audit_id = $1 ORDER BY id',
    [alphaId],
  );
  findings = rows;
  const bravo = (
    await pool().query<Finding>('SELECT id, list, reason, url FROM findings WHERE audit_id = $1', [b])
  ).rows;
  const items = latestItems(findings);
  expected = new Map(items.map((i) => [i.finding.id, i.verdict]));
  // Oldest first: an older finished run, the latest finished (partial: 5 errors), then a running and a
  // failed run started later, and another audit's run finished last of all.
  const older = await run(alphaId, every(findings, 'confirmed'), {
    status: 'succeeded',
    hoursAgo: 5,
    finished: true,
  });
  latest = await run(alphaId, items, { status: 'partial', hoursAgo: 4, finished: true });
  const running = await run(alphaId, every(findings, 'dead'), {
    status: 'running',
    hoursAgo: 1,
    finished: false,
  });
  const failed = await run(alphaId, every(findings, 'recovered'), {
    status: 'failed',
    hoursAgo: 2,
    finished: true,
  });
  const other = await run(b, every(bravo, 'changed'), { status: 'succeeded', hoursAgo: 0, finished: true });
  otherRuns = [older.id, running.id, failed.id, other.id];
  const user = await createUser({
    email: `report-spot-${randomUUID()}@example.com`,
    name: 'Rita Reviewer',
    role: 'reviewer',
    password: 'x'.repeat(12),
  });
  alphaToken = (await createShare(alphaId, user.id, null)).token;
  quietToken = (await createShare(quiet, user.id, null)).token;
});

async function share(token: string) {
  const opened = await openShare(token);
  if (!opened) throw new Error('share expected');
  return opened;
}

describe('the data', () => {
  it('is not vacuous: 110 prune rows of two reasons, and the latest run warns of a stale crawl', () => {
    expect(findings).toHaveLength(110);
    expect(new Set(findings.map((f) => f.reason))).toEqual(new Set(['http_404', 'unreached_by_crawl']));
    expect(latest.summary.byVerdict).toMatchObject({
      contradicted: 30,
      confirmed: 25,
      orphan_live: 10,
      dead: 40,
      error: 5,
    });
    expect(latest.summary.staleCrawl?.message).toContain('30 of 105 checked URLs');
  });

  it('takes the latest finished run of the audit: not an older one, a running, a failed or another audit’s', async () => {
    const found = await latestFinishedSpotCheck(alphaId);
    expect(found).toMatchObject({ runId: latest.id, status: 'partial', rows: 110, summary: latest.summary });
    expect(otherRuns).not.toContain(found?.runId);
  });

  it('gives the page its figures, its first rows and the verdict of every row on it', async () => {
    const data = await loadReportPage(await share(alphaToken), {});
    expect(data.spotCheck?.runId).toBe(latest.id);
    expect(data.spotItems).toHaveLength(REPORT_SPOT_ROWS);
    expect(data.spotItems.map((i) => i.findingId)).toEqual(
      findings.slice(0, REPORT_SPOT_ROWS).map((f) => f.id),
    );
    const dead = data.spotItems.find((i) => i.verdict === 'dead');
    expect(dead?.chain.map((h) => [h.status, h.location])).toEqual([
      [301, '/gone'],
      [404, null],
    ]);
    const pageIds = data.page?.items.map((f) => f.id) ?? [];
    expect(pageIds).toHaveLength(100);
    expect([...data.verdicts.keys()].sort((x, y) => x - y)).toEqual([...pageIds].sort((x, y) => x - y));
    for (const id of pageIds) expect(data.verdicts.get(id)).toBe(expected.get(id));
  });

  it('reads verdicts of the run for the asked ids only', async () => {
    const [first, second] = findings;
    const verdicts = await verdictsOf(latest.id, [first?.id ?? 0, second?.id ?? 0, 2_000_000_000]);
    expect(verdicts.size).toBe(2);
    expect(verdicts.get(first?.id ?? 0)).toBe(expected.get(first?.id ?? 0));
  });
});

describe('the page', () => {
  async function render(token: string, searchParams: Record<string, string> = {}) {
    const props = { params: Promise.resolve({ token }), searchParams: Promise.resolve(searchParams) };
    return renderToStaticMarkup(await SharedReportPage(props));
  }

  it('shows the section with the figures, the stale-crawl alert, the rows and their hop chains', async () => {
    const html = await render(alphaToken);
    const section = html.slice(
      html.indexOf('data-testid="report-spot-check"'),
      html.indexOf('report-list-heading'),
    );
    expect(section).toContain('Live spot-check');
    expect(section).toContain('110 rows');
    expect(section).toContain('some could not be checked');
    expect(section).toContain('The crawl looks stale');
    expect(section).toContain(latest.summary.staleCrawl?.message);
    // The count's class comes from the spot-checks room's CSS Module (a scoped name around the same word).
    expect(section).toMatch(
      /data-testid="spot-count-contradicted"><span class="[^"]*spot-verdict__count[^"]*">30<\/span>/,
    );
    expect(section).toContain(`n = ${latest.summary.rotRate.n}`);
    expect(section.match(/data-testid="report-spot-item"/g)).toHaveLength(REPORT_SPOT_ROWS);
    expect(section).toContain('301 → 404');
    expect(section).toContain('→ Location: /gone');
    expect(section).toContain('and 10 more checked rows');
    // Each row of the findings table carries its verdict in that run.
    const table = html.slice(html.indexOf('data-testid="report-table"'));
    const shown = [...table.matchAll(/data-testid="report-live-verdict" data-verdict="([a-z_]+)"/g)].map(
      (m) => m[1],
    );
    expect(shown).toEqual(findings.slice(0, 100).map((f) => expected.get(f.id)));
    expect(table).toContain('Live check:');
  });

  it('gives a link-holder no run ids, no starter, no links', async () => {
    const html = await render(alphaToken);
    for (const id of [latest.id, ...otherRuns]) expect(html).not.toContain(id);
    expect(html).not.toContain(STARTER);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(
      hrefs.every(
        (href) => href.startsWith(`/r/${alphaToken}?list=`) || href === `/r/${alphaToken}/report.pdf`,
      ),
    ).toBe(true);
    // The only form is the URL search, a GET of this report; nothing can change the audit.
    expect(html.match(/<form\b[^>]*>/g)).toEqual([
      `<form class="report-search" role="search" data-testid="report-search" action="/r/${alphaToken}">`,
    ]);
    expect(html).not.toMatch(/method="post"|<(select|textarea)\b/i);
    expect(html.match(/<button\b[^>]*>/g)).toEqual(['<button type="submit" class="button button--small">']);
  });

  it('says in a line when no live check was run, and shows no verdicts', async () => {
    const html = await render(quietToken);
    expect(html).toContain('No live spot-check was run for this audit.');
    expect(html).not.toContain('report-spot-item');
    expect(html).not.toContain('report-live-verdict');
  });
});

describe('the PDF', () => {
  it('has the section: figures, the stale warning, the checked rows with their chains, and row verdicts', async () => {
    const data = await loadPdfReport(await share(alphaToken));
    const text = pdfText(await buildReportPdf(data));
    // The section's heading (the cover's contents name it too), up to the first list's.
    const start = text.indexOf('Live spot-check\n');
    const section = text.slice(start, text.indexOf('Prune list: 110 rows', start));
    expect(section).toContain('Rows checked');
    expect(section).toContain('110 (some could not be checked)');
    // pdfkit wraps long lines (each keeps its trailing space), and pdfText reads WinAnsi as Latin-1: "–" is 0x96.
    const flat = section.replace(/\s*\n\s*/g, ' ');
    expect(flat).toContain('Confirmed: 25, Contradicted: 30, Changed: 0, Live orphan: 10, Dead: 40');
    expect(section).toContain('The crawl looks stale');
    expect(flat).toContain(latest.summary.staleCrawl?.message);
    expect(flat).toContain(shareText(latest.summary.rotRate).replace('–', '\x96'));
    expect(flat).toContain('Rot rate 62 % (95 % interval 52 %\x9671 %, n = 105)');
    expect(section).toContain(`n = ${latest.summary.orphanShare.n})`);
    expect(section).toContain('Orphan share');
    const lines = section.split('\n');
    expect(lines.filter((l) => l.startsWith('https://a.example/p/'))).toHaveLength(REPORT_SPOT_ROWS);
    // The chain's statuses on one line (its arrows are drawn between them).
    expect(lines).toContain('301    404');
    expect(lines).toContain('no answer');
    expect(section).toContain('and 10 more checked rows');
    // The lists' rows with the run's verdict.
    const list = text.slice(text.indexOf('Prune list: 110 rows', start));
    expect(list).toContain('Live check');
    // The run checked every prune row: each row shown carries its verdict on its evidence line.
    const shown = (data.lists[0]?.reasons ?? []).reduce(
      (n, r) => n + Math.min(r.total, PDF_ROWS_PER_REASON),
      0,
    );
    const verdicts = list.split('\n').flatMap((l) => /Live check: (\w[\w ]*)/.exec(l)?.[1] ?? []);
    expect(verdicts).toHaveLength(shown);
    const labels = new Set([
      'Confirmed',
      'Contradicted',
      'Changed',
      'Live orphan',
      'Dead',
      'Recovered',
      'Not checked',
    ]);
    expect(verdicts.every((v) => labels.has(v))).toBe(true);
    expect(new Set(verdicts).size).toBeGreaterThan(1);
    expect(text).not.toContain('Recovered\n');
    expect(text).not.toContain(STARTER);
  });

  it('says in a line when no live check was run', async () => {
    const text = pdfText(await buildReportPdf(await loadPdfReport(await share(quietToken))));
    expect(text).toContain('No live spot-check was run for this audit.');
    expect(text).not.toContain('Live check\n');
  });
});
