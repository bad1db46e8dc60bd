// The serving facts the ingest stores for the lint: an audit of a site on a 127.0.0.1
// server, whose robots.txt disallows a declared URL and whose sitemaps are served as text/html, named .gz
// but not gzip, and with a BOM (plain, and inside gzip), is graded on all four rules an older audit could not judge.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import { runStep } from '@/lib/runs/runner';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { lintRun } from './run';
import { lintReport, startLint } from './service';

let server: TestServer;
const at = (path: string) => `${server.origin}${path}`;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const xml = { 'content-type': 'application/xml' };
    switch (req.url) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(
          [
            'User-agent: *',
            'Disallow: /private/',
            ...['a.xml', 'html.xml', 'b.xml.gz', 'bom.xml', 'bom-inside.xml.gz'].map(
              (f) => `Sitemap: ${at(`/${f}`)}`,
            ),
          ].join('\n'),
        );
      case '/a.xml':
        res.writeHead(200, xml);
        return void res.end(urlsetXml([at('/private/secret'), at('/open')]));
      case '/html.xml':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(urlsetXml([at('/html-page')]));
      case '/b.xml.gz':
        res.writeHead(200, xml);
        return void res.end(urlsetXml([at('/not-gzip')]));
      case '/bom.xml':
        res.writeHead(200, xml);
        return void res.end(
          Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(urlsetXml([at('/bom')]))]),
        );
      case '/bom-inside.xml.gz':
        res.writeHead(200, { 'content-type': 'application/gzip' });
        return void res.end(
          gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(urlsetXml([at('/bom-gz')]))])),
        );
      default:
        res.writeHead(404);
        res.end();
    }
  });
});

afterAll(async () => {
  await server.close();
  await stopBoss();
});

async function lintOfSite(): Promise<{ id: string; report: Awaited<ReturnType<typeof lintReport>> }> {
  const id = randomUUID();
  await insertAudit(id, 'facts', { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: at('/') },
  ]);
  await runAuditStep('ingest', id);
  // An audit without a crawl is graded when it ends: its lint is queued already.
  const queued = await lintReport(id, { limit: 50, offset: 0 });
  expect(queued.status).toBe('queued');
  const runId = queued.lint?.id as string;
  await runStep(lintRun, 'lint', { runId, attempt: 1 });
  return { id, report: await lintReport(id, { limit: 50, offset: 0 }) };
}

describe('the lint of a fetched audit', () => {
  it('judges robots.txt, Content-Type, gzip and BOM from the stored facts', async () => {
    const { report } = await lintOfSite();
    const rule = (code: string) => report.rules.find((r) => r.code === code);
    expect(rule('robots_disallowed')).toMatchObject({
      count: 1,
      examples: [{ url: at('/private/secret'), file: at('/a.xml') }],
    });
    expect(rule('content_type_not_xml')).toMatchObject({
      count: 1,
      examples: [{ file: at('/html.xml'), detail: 'Content-Type: text/html' }],
    });
    expect(rule('gzip_mismatch')).toMatchObject({
      count: 1,
      examples: [{ file: at('/b.xml.gz'), detail: 'named .gz but not gzip-compressed' }],
    });
    expect(rule('bom')).toMatchObject({ count: 2 });
    expect(
      rule('bom')
        ?.examples.map((e) => e.file)
        .sort(),
    ).toEqual([at('/bom-inside.xml.gz'), at('/bom.xml')]);
    expect(report.summary?.notJudged).toEqual([]);
  });

  it('an audit whose rows predate the facts (NULL) lists all four as not judged, and fires none', async () => {
    const { id } = await lintOfSite();
    await pool().query(
      `UPDATE sitemap_files SET content_type = NULL, content_encoding = NULL, gzipped = NULL, has_bom = NULL,
              robots_txt = NULL WHERE audit_id = $1`,
      [id],
    );
    const runId = await startLint(id, 'test');
    await runStep(lintRun, 'lint', { runId, attempt: 1 });
    const report = await lintReport(id, { limit: 50, offset: 0 });
    const fired = report.rules.map((r) => r.code);
    for (const code of ['robots_disallowed', 'content_type_not_xml', 'gzip_mismatch', 'bom'])
      expect(fired).not.toContain(code);
    expect(report.summary?.notJudged).toEqual([
      'robots_disallowed',
      'content_type_not_xml',
      'gzip_mismatch',
      'bom',
    ]);
  });
});
