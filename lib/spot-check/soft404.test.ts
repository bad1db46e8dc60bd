import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { checkLive } from './fetch-live';
import { runChecks } from './politeness';
import { hostProbeOf, isSoft404, probeHost, probeUrlFor, soft404Match } from './soft404';
import { fingerprintOf, similarity } from './text-similarity';
import type { LiveResult } from './types';

const quick = { timeoutMs: 2_000 };
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(' ');
const notFoundText = `We looked everywhere. ${words(120, 'w')}`;

function html(title: string, body: string): string {
  return `<html><head><title>${title}</title><script>var x = "${Math.random()}";</script></head><body>${body}</body></html>`;
}

let site: TestServer;
let homeSite: TestServer;
let strict: TestServer;

beforeAll(async () => {
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  // Answers every unknown path 200 with its "not found" template (a random script each time).
  site = await startTestServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    if (req.url === '/real') return res.end(html('Blue widgets', `<p>${words(120, 'blue')}</p>`));
    if (req.url === '/near') {
      // The template with one word changed (and another title): near-identical text.
      return res.end(html('Widgets', `<p>${notFoundText.replace('w60 ', 'x60 ')}</p>`));
    }
    if (req.url === '/says') return res.end(html('Seite nicht gefunden – Shop', '<p>Sorry</p>'));
    return res.end(html('Oops', `<p>${notFoundText}</p>`));
  });
  // Sends every unknown path to its home page.
  homeSite = await startTestServer((req, res) => {
    if (req.url === '/')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(html('Home', 'Welcome home'));
    res.writeHead(301, { location: '/' }).end();
  });
  // Answers unknown paths 404 with a page titled like some real pages.
  strict = await startTestServer((req, res) => {
    if (req.url === '/same-title')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(html('Shop', 'A real page'));
    if (req.url === '/copy')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(html('Other', notFoundText));
    res.writeHead(404, { 'content-type': 'text/html' }).end(html('Shop', notFoundText));
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all([site.close(), homeSite.close(), strict.close()]);
});

describe('probeHost', () => {
  it('fetches one random path that cannot exist and keeps status, title, text hash and fingerprint', async () => {
    const probe = await probeHost(site.origin, quick);
    expect(probe.url).toMatch(new RegExp(`^${site.origin}/sitemap-audit-probe-[0-9a-f]{16}$`));
    expect(probe).toMatchObject({ origin: site.origin, status: 200, title: 'Oops', finalUrl: probe.url });
    expect(probe.textHash).toMatch(/^[0-9a-f]{64}$/);
    expect(probe.fingerprint).toMatch(/^w5k128:/);
    expect((await probeHost(site.origin, quick)).url).not.toBe(probe.url);
  });

  it('can be checked inside a politeness batch and kept with hostProbeOf', async () => {
    const url = probeUrlFor(strict.origin);
    const [live] = await runChecks([url], { check: quick });
    const probe = hostProbeOf(strict.origin, live as LiveResult);
    expect(probe).toMatchObject({ origin: strict.origin, url, status: 404, title: 'Shop' });
  });
});

describe('isSoft404', () => {
  it('flags a 200 with the probe title or near-identical text, not a real page', async () => {
    const probe = await probeHost(site.origin, quick);
    const check = (path: string) => checkLive(`${site.origin}${path}`, quick);
    expect(soft404Match(await check('/deleted-product'), probe)).toBe('same_title_as_probe');
    expect(soft404Match(await check('/near'), probe)).toBe('same_text_as_probe');
    expect(isSoft404(await check('/real'), probe)).toBe(false);
  });

  it('flags a 200 whose title says "not found", even without a probe', async () => {
    expect(soft404Match(await checkLive(`${site.origin}/says`, quick), null)).toBe('title_says_not_found');
  });

  it('uses the title only when the probe answered 200 too; the text whatever it answered', async () => {
    const probe = await probeHost(strict.origin, quick);
    expect(probe).toMatchObject({ status: 404, title: 'Shop' });
    expect(isSoft404(await checkLive(`${strict.origin}/same-title`, quick), probe)).toBe(false);
    expect(soft404Match(await checkLive(`${strict.origin}/copy`, quick), probe)).toBe('same_text_as_probe');
  });

  it('a site sending unknown paths home: the home page is not a soft 404, a URL redirected there is', async () => {
    const probe = await probeHost(homeSite.origin, quick);
    expect(probe.finalUrl).toBe(`${homeSite.origin}/`);
    expect(isSoft404(await checkLive(`${homeSite.origin}/`, quick), probe)).toBe(false);
    expect(isSoft404(await checkLive(`${homeSite.origin}/old-page`, quick), probe)).toBe(true);
  });

  it('never flags a non-200 or an errored check', async () => {
    const probe = await probeHost(strict.origin, quick);
    expect(isSoft404(await checkLive(`${strict.origin}/whatever`, quick), probe)).toBe(false);
  });
});

describe('text similarity', () => {
  it('is 1 for the same text, about 0.95 for one word changed in 120, low for different texts', () => {
    const a = fingerprintOf(notFoundText) as string;
    expect(similarity(a, fingerprintOf(notFoundText) as string)).toBe(1);
    const one = similarity(a, fingerprintOf(notFoundText.replace('w60 ', 'x60 ')) as string);
    expect(one).toBeGreaterThan(0.9);
    expect(one).toBeLessThan(1);
    expect(similarity(a, fingerprintOf(words(120, 'blue')) as string)).toBeLessThan(0.1);
    expect(fingerprintOf('  ')).toBeNull();
    expect(similarity(a, 'garbage')).toBe(0);
  });

  it('keeps a bounded sketch of a long text and still tells near copies apart from other texts', () => {
    const long = words(5_000, 'z');
    const sketch = fingerprintOf(long) as string;
    expect(sketch.length).toBe('w5k128:'.length + 128 * 8);
    expect(similarity(sketch, fingerprintOf(`${long} tail words here`) as string)).toBeGreaterThan(0.9);
    expect(similarity(sketch, fingerprintOf(words(5_000, 'q')) as string)).toBeLessThan(0.1);
  });
});
