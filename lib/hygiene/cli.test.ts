// The `sitemap-audit` command as a pipeline runs it: a real child process (bin/sitemap-audit.mjs) against
// local files and a 127.0.0.1 HTTP server, checked by exit code, JSON and messages.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { urlset } from '@/lib/test-support/sitemap-sources';

// Each test spawns the real command (node + tsx start-up, about half a second here): the CI machine is slower.
const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'sitemap-audit.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      // From a folder outside the repo, as a pipeline runs it: the `@/` imports must still resolve.
      { cwd: dir, env: { ...process.env, ALLOW_PRIVATE_NETWORK: 'true' }, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function write(name: string, body: string | Uint8Array): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  return file;
}

const locs = (...urls: string[]) => urlset(urls.map((url) => `<url><loc>${url}</loc></url>`).join('\n'));
const codes = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout).results as { code: string; count: number }[]).map((r) => [r.code, r.count]),
  );

describe('sitemap-audit lint on local files', { timeout: 20_000 }, () => {
  it('exits 0 on a clean file and prints JSON with totals', async () => {
    const result = await run(
      'lint',
      write('clean.xml', locs('https://a.example/', 'https://a.example/b')),
      '--json',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ totals: { files: 1, urls: 2 }, results: [] });
  });

  it('exits 1 on an error, with a readable report grouped by severity', async () => {
    const file = write('bad.xml', urlset('<url><loc>/about</loc><priority>0.5</priority></url>'));
    const result = await run('lint', file, '--base', 'https://a.example/');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /Errors \(1 rule, 1 found\)\n {2}loc_relative {2}Relative location: 1\n {4}fix: /,
    );
    expect(result.stdout).toContain(`/about  (${file}:3)`);
    expect(result.stdout).toMatch(/Info \(1 rule/);
  });

  it('--fail-on warning turns warnings into exit 1; by default they pass', async () => {
    const file = write('warn.xml', locs('https://a.example/x?color=red'));
    expect((await run('lint', file)).code).toBe(0);
    expect((await run('lint', file, '--fail-on', 'warning')).code).toBe(1);
  });

  it('exits 2 on an unreadable file, naming the file, the line of the cause and what was expected', async () => {
    const lines = [...Array.from({ length: 6 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`)];
    lines.push(
      '<url><loc>https://a.example/?a=1&b=2</loc></url>',
      '<url><loc>https://a.example/z</loc></url>',
    );
    const file = write('broken.xml', urlset(lines.join('\n')));
    const result = await run('lint', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read ${file}: line 9: an unescaped "&" (write it as &amp;)`);
  });

  it('exits 2 on usage errors and 0 for --help', async () => {
    const [none, badThreshold, help, missing] = await Promise.all([
      run('lint'),
      run('lint', 'x.xml', '--fail-on', 'info'),
      run('lint', '--help'),
      run('lint', path.join(dir, 'missing.xml')),
    ]);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('lint needs at least one file') });
    expect(badThreshold).toMatchObject({ code: 2, stderr: expect.stringContaining('--fail-on must be') });
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Exit codes: 0') });
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('no such file') });
  });

  it('checks a local robots.txt and reads a folder: index plus the children beside it', async () => {
    write(
      'site/sitemap-index.xml',
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.example/part-1.xml.gz</loc></sitemap></sitemapindex>`,
    );
    write('site/part-1.xml.gz', gzipSync(locs('https://a.example/private/x', 'https://a.example/ok')));
    const robots = write('robots.txt', 'User-agent: *\nDisallow: /private\n');
    const result = await run(
      'lint',
      path.join(dir, 'site'),
      '--robots',
      robots,
      '--base',
      'https://a.example/',
      '--json',
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).totals).toMatchObject({ files: 2, urls: 2, children: 1 });
    expect(codes(result.stdout)).toEqual({ robots_disallowed: 1 });
  });
  it('never prints a file an index child points outside its folder at; says which child and why', async () => {
    write('leak/.git-credentials', 'https://user:s3cret-token@github.com\n');
    const index = write(
      'leak/out/sitemap.xml',
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>https://a.example/..%2F.git-credentials</loc></sitemap>\n<sitemap><loc>https://a.example/sitemaps/a.xml</loc></sitemap></sitemapindex>`,
    );
    write('leak/out/sitemaps/a.xml', locs('https://a.example/a'));
    symlinkSync('.', path.join(dir, 'leak/out/loop'));
    const [text, folder] = await Promise.all([
      run('lint', index),
      run('lint', path.join(dir, 'leak/out'), '--json', '--max-files', '5'),
    ]);
    for (const result of [text, folder]) expect(result.stdout + result.stderr).not.toContain('s3cret');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Linted 2 files: 1 URLs');
    expect(text.stdout).toMatch(/child_refused {2}Child of a local index refused.*: 1\n/);
    expect(text.stdout).toContain(
      `https://a.example/..%2F.git-credentials  (${index}:2): an encoded separator (%2F or %5C) in the path`,
    );
    expect(JSON.parse(folder.stdout)).toMatchObject({
      totals: { files: 2, urls: 1 },
      skipped: [{ path: path.join(dir, 'leak/out/loop'), reason: 'a symbolic link: not followed' }],
    });
    expect(folder.stderr).toContain('refused child https://a.example/..%2F.git-credentials');
    expect((await run('lint', index, '--max-files', '0')).stderr).toContain('--max-files must be');
  });
});

describe('sitemap-audit lint over HTTP (127.0.0.1)', { timeout: 20_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const origin = `http://${req.headers.host}`;
      const send = (type: string, body: string | Uint8Array) =>
        res.writeHead(200, { 'content-type': type }).end(body);
      if (req.url === '/robots.txt')
        send('text/plain', `User-agent: *\nDisallow: /private\nSitemap: ${origin}/old-index.xml\n`);
      else if (req.url === '/old-index.xml') res.writeHead(301, { location: '/index.xml' }).end();
      else if (req.url === '/index.xml')
        send(
          'application/xml',
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/a.xml.gz</loc></sitemap><sitemap><loc>${origin}/b.xml</loc></sitemap></sitemapindex>`,
        );
      else if (req.url === '/a.xml.gz') send('text/html', locs(`${origin}/one`, `${origin}/private/two`));
      else if (req.url === '/b.xml') send('application/xml', gzipSync(locs(`${origin}/three`)));
      else res.writeHead(404).end();
    });
  });
  afterAll(() => server.close());

  it('follows robots.txt and the redirected index; flags redirect, content type, gzip mismatch, robots', async () => {
    const result = await run('lint', `${server.origin}/robots.txt`, '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.totals).toMatchObject({ files: 3, urls: 3, children: 2 });
    expect(report.robots).toBe(`${server.origin}/robots.txt`);
    expect(codes(result.stdout)).toEqual({
      robots_disallowed: 1,
      sitemap_redirected: 1,
      content_type_not_xml: 1,
      gzip_mismatch: 2,
    });
    const redirect = report.results.find((r: { code: string }) => r.code === 'sitemap_redirected');
    expect(redirect.examples[0]).toEqual({
      file: `${server.origin}/old-index.xml`,
      detail: `redirects to ${server.origin}/index.xml`,
    });
  });

  it('at a site root without Sitemap lines, reads the first conventional location that answers', async () => {
    const site = await startTestServer((req, res) => {
      if (req.url === '/sitemap_index.xml')
        res.writeHead(200, { 'content-type': 'text/xml' }).end(locs(`http://${req.headers.host}/a`));
      else res.writeHead(404).end();
    });
    try {
      const found = await run('lint', `${site.origin}/`, '--json');
      expect(found.code).toBe(0);
      expect(JSON.parse(found.stdout).totals).toMatchObject({ files: 1, urls: 1 });
      const asked = site.requests.map((r) => r.url).filter((url) => url.startsWith('/sitemap'));
      expect(asked).toEqual(['/sitemap.xml', '/sitemap_index.xml']);
    } finally {
      await site.close();
    }
  });

  it('exits 2 when a sitemap URL answers 404', async () => {
    const result = await run('lint', `${server.origin}/gone.xml`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read ${server.origin}/gone.xml: HTTP 404`);
  });
});

describe('sitemap-audit diff', { timeout: 20_000 }, () => {
  it('lists URLs added, removed and whose lastmod changed, bounded by --limit', async () => {
    const entry = (loc: string, lastmod?: string) =>
      `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
    const before = write(
      'old.xml',
      urlset(
        [
          entry('https://a.example/kept', '2024-01-01'),
          entry('https://a.example/same', '2024-01-01'),
          entry('https://a.example/gone-1'),
          entry('https://a.example/gone-2'),
        ].join(''),
      ),
    );
    const after = write(
      'new.xml',
      urlset(
        [
          entry('https://a.example/kept', '2024-02-01'),
          entry('https://a.example/same', '2024-01-01'),
          entry('https://a.example/new'),
          entry('https://a.example/new'),
        ].join(''),
      ),
    );
    const result = await run('diff', before, after, '--json', '--limit', '1');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      old: { files: 1, urls: 4 },
      new: { files: 1, urls: 4 },
      added: { count: 1, examples: ['https://a.example/new'] },
      removed: { count: 2, examples: ['https://a.example/gone-1'] },
      lastmodChanged: {
        count: 1,
        examples: [
          { url: 'https://a.example/kept', old: '2024-01-01T00:00:00.000Z', new: '2024-02-01T00:00:00.000Z' },
        ],
      },
    });
    const text = await run('diff', before, after);
    expect(text.stdout).toContain('Removed: 2\n  - https://a.example/gone-1\n  - https://a.example/gone-2');
    expect((await run('diff', before)).code).toBe(2);
  });
});
