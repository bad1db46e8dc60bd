// The app's sitemap lint and the `sitemap-audit lint` command judge the same rules: real sitemap files are
// uploaded as an audit (POST /api/v1/audits, no crawl: the lint is started when the audit ends) and given to
// the real command (bin/sitemap-audit.mjs, a child process), and the rules each fires are compared, code by
// code with their counts. The sets hold the false alarms this guards against: http entries on an https
// site (the command judged no host rule for local files), an uploaded index whose absolute <loc>s read as
// relative in the app, and a Google News sitemap whose articles the regular sitemap lists too.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POST as cancelAudit } from '@/app/api/v1/audits/[id]/cancel/route';
import { GET as getLint } from '@/app/api/v1/audits/[id]/lint/route';
import { POST as createAudit } from '@/app/api/v1/audits/route';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { lintRun } from './run';
import type { LintReport } from './schema';

const reviewer = await testCaller('reviewer');
const bin = path.resolve(import.meta.dirname, '..', '..', '..', 'bin', 'sitemap-audit.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lint-parity-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopBoss();
});
const ctx = (id: string) => ({ params: Promise.resolve({ id }) }) as never;

type Files = [name: string, body: string][];
const fixture = (relative: string) => readFileSync(fixturePath(relative), 'utf8');

/** The aafeher test site's index and its three children, on a host of their own (the fixture writes HOST). */
function minisite(host: string, locs: 'absolute' | 'relative'): Files {
  const index = fixture('index/aafeher-minisite/sitemapindex-1.xml');
  const children = ['sitemap-01.xml', 'sitemap-02.xml', 'sitemap-03.xml'];
  return [
    [
      'sitemapindex-1.xml',
      locs === 'absolute'
        ? index.replaceAll('http://HOST/', `https://${host}/`)
        : index.replaceAll('http://HOST/', ''),
    ],
    ...children.map((name): [string, string] => [
      name,
      fixture(`index/aafeher-minisite/${name}`).replaceAll('http://HOST/', `https://${host}/`),
    ]),
  ];
}

/** A real news sitemap (NYT, advertools) and a regular sitemap listing the same articles. */
function newsAndPosts(): Files {
  const news = fixture('extensions/adv-news_sitemap.xml');
  const articles = [...news.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1] as string);
  expect(articles.length).toBeGreaterThanOrEqual(6);
  return [
    ['news-sitemap.xml', news],
    ['post-sitemap.xml', urlsetXml(articles.filter((_, i) => i < 6))],
  ];
}

/** The rules the app's lint fires over the files uploaded as an audit without a crawl: code → count. */
async function appRules(files: Files): Promise<Record<string, number>> {
  const res = await createAudit(
    reviewer.request('http://localhost/api/v1/audits', {
      method: 'POST',
      body: multipartBody(
        part('name', `Lint parity ${randomUUID().slice(0, 8)}`),
        ...files.map(([name, body]) => part('sitemap', body, name)),
      ),
      headers: { 'content-type': MULTIPART },
    }),
    undefined,
  );
  expect(res.status, await res.clone().text()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await runAuditStep('ingest', id);
  const report = async (): Promise<LintReport> =>
    (await getLint(reviewer.request(`http://localhost/api/v1/audits/${id}/lint`), ctx(id))).json();
  const queued = await report();
  // The audit had no crawl: its lint was started when it ended all the same.
  expect(queued.status).toBe('queued');
  await runStep(lintRun, 'lint', { runId: queued.lint?.id as string, attempt: 1 });
  const done = await report();
  expect(done.status).toBe('succeeded');
  expect(done.summary?.files).toBe(files.length);
  return Object.fromEntries(done.rules.map((r) => [r.code, r.count]));
}

/** The rules `sitemap-audit lint --json` fires over the same files, written side by side. */
async function cliRules(files: Files): Promise<Record<string, number>> {
  const folder = mkdtempSync(path.join(dir, 'set-'));
  const paths = files.map(([name, body]) => {
    writeFileSync(path.join(folder, name), body);
    return path.join(folder, name);
  });
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [bin, 'lint', '--json', ...paths], { timeout: 30_000 }, (error, out) =>
      error && error.code !== 1 ? reject(error) : resolve(out),
    );
  });
  const report = JSON.parse(stdout) as {
    totals: { files: number };
    results: { code: string; count: number }[];
  };
  expect(report.totals.files).toBe(files.length);
  return Object.fromEntries(report.results.map((r) => [r.code, r.count]));
}

async function bothRules(files: Files) {
  // The command runs in its own process: it starts while the app ingests and lints.
  const [app, cli] = await Promise.all([appRules(files), cliRules(files)]);
  expect(app).toEqual(cli);
  return app;
}

describe('the app and the command judge the same rules', () => {
  it('http entries on an https site (a real sitemap whose last five entries kept http://)', async () => {
    const real = fixture('xml/recon-mikenelson-sitemap.xml');
    const locs = [...real.matchAll(/<loc>https:\/\//g)];
    expect(locs.length).toBe(45);
    let left = locs.length - 5;
    const halfMoved = real.replace(/<loc>https:\/\//g, (m) => (left-- > 0 ? m : '<loc>http://'));
    const rules = await bothRules([['sitemap.xml', halfMoved]]);
    expect(rules.http_on_https).toBe(5);
  }, 60_000);

  it('entries on other hosts and schemes (sitemap.js alltags: https first, then http and other hosts)', async () => {
    const rules = await bothRules([['alltags.xml', fixture('extensions/sm-alltags.xml')]]);
    expect(rules.wrong_host).toBe(4);
  }, 60_000);

  it('an uploaded index with absolute <loc>s: no relative-location error', async () => {
    const rules = await bothRules(minisite(`mini-${randomUUID().slice(0, 8)}.example`, 'absolute'));
    expect(rules.loc_relative).toBeUndefined();
  }, 60_000);

  it('an uploaded index with relative <loc>s: the relative-location error, once per child', async () => {
    const rules = await bothRules(minisite(`mini-${randomUUID().slice(0, 8)}.example`, 'relative'));
    expect(rules.loc_relative).toBe(3);
  }, 60_000);

  it('a Google News sitemap whose articles the regular sitemap lists too: no duplicate warning', async () => {
    const rules = await bothRules(newsAndPosts());
    expect(rules.duplicate_across_files).toBeUndefined();
    expect(rules.duplicate_in_file).toBeUndefined();
  }, 60_000);

  it('the same news sitemap twice is a duplicate all the same (not vacuous)', async () => {
    const news = fixture('extensions/adv-news_sitemap.xml');
    const rules = await bothRules([
      ['news-1.xml', news],
      ['news-2.xml', news],
    ]);
    expect(rules.duplicate_across_files).toBe(6);
  }, 60_000);

  it('a real fixture with a relative loc, a future and an invalid lastmod (squirrelscan)', async () => {
    const rules = await bothRules([
      ['bad-sitemap.xml', fixture('malformed/squirrelscan-bad-sitemap-audit-rules.xml')],
    ]);
    expect(rules).toMatchObject({ loc_relative: 1, lastmod_future: 1, lastmod_invalid: 1 });
  }, 60_000);
});

describe('every audit whose sitemaps were read is graded', () => {
  it('an audit cancelled before its reconciliation, after reading its sitemaps', async () => {
    const sitemap = fixture('xml/recon-mikenelson-sitemap.xml');
    const crawl = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
      .map((m) => JSON.stringify({ url: m[1], status: 200 }))
      .join('\n');
    const res = await createAudit(
      reviewer.request('http://localhost/api/v1/audits', {
        method: 'POST',
        body: multipartBody(
          part('name', 'Cancelled before reconciling'),
          part('sitemap', sitemap, 'sitemap.xml'),
          part('crawl', crawl, 'crawl.jsonl'),
        ),
        headers: { 'content-type': MULTIPART },
      }),
      undefined,
    );
    const { id } = (await res.json()) as { id: string };
    await runAuditStep('ingest', id);
    const lint = async (): Promise<LintReport> =>
      (await getLint(reviewer.request(`http://localhost/api/v1/audits/${id}/lint`), ctx(id))).json();
    // Waiting for its reconciliation: not graded yet (a reconciled audit is graded once its prune list exists).
    expect((await lint()).status).toBe('none');
    const cancelled = await cancelAudit(
      reviewer.request(`http://localhost/api/v1/audits/${id}/cancel`, { method: 'POST' }),
      ctx(id),
    );
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
    const queued = await lint();
    expect(queued.status).toBe('queued');
    await runStep(lintRun, 'lint', { runId: queued.lint?.id as string, attempt: 1 });
    const done = await lint();
    expect(done.status).toBe('succeeded');
    expect(done.summary).toMatchObject({ files: 1, urls: 45, reconciled: false });
  }, 60_000);
});
