// Real Screaming Frog exports from ../shared/fixtures reconciled as a new user would, with the lists an
// SEO would sign off on written out by hand.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import type { TAuditOptions } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { fixturePath } from '@/lib/test-support/fixtures';
import { runAuditStep } from '@/lib/test-support/run-audit';

/** A urlset of the given URLs: for exports whose site's sitemap is not in the fixtures, the test declares
 * a hand-picked set (healthy pages and every kind of problem the export has). */
function urlset(name: string, urls: string[]): string {
  const file = path.join(os.tmpdir(), `${name}-${randomUUID()}.xml`);
  writeFileSync(
    file,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`,
  );
  return file;
}

const RESOURCE = /\.(webp|jpe?g|png|gif|svg|css|js|pdf|xls|xml)(\?|$)/i;

async function reconcileFixtures(sitemaps: string[], crawl: string, options: Partial<TAuditOptions> = {}) {
  const id = randomUUID();
  await insertAudit(id, 'real export', { normalization: 'exact', ...options }, [
    ...sitemaps.map((f) => ({
      role: 'sitemap' as const,
      kind: 'upload' as const,
      fileName: f.split('/').pop() ?? f,
      storedPath: path.isAbsolute(f) ? f : fixturePath(f),
    })),
    {
      role: 'crawl',
      kind: 'upload',
      fileName: crawl.split('/').pop() ?? crawl,
      storedPath: path.isAbsolute(crawl) ? crawl : fixturePath(crawl),
    },
  ]);
  await runAuditStep('ingest', id);
  await runAuditStep('reconcile', id);
  const audit = await getAudit(id);
  const { rows } = await pool().query(
    `SELECT list, url, reason, reasons, signals, variant_url AS "variantUrl", redirect_url AS "redirectUrl",
            canonical FROM findings WHERE audit_id = $1 ORDER BY id`,
    [id],
  );
  return { audit, rows };
}

function byList(rows: { list: string; url: string; reason: string }[], list: string) {
  return rows.filter((r) => r.list === list).map((r) => [r.url, r.reason]);
}

describe('R1: ayrshirefencinggroup.com (www in the sitemap, www → apex redirects, apex → www canonicals)', () => {
  const W = 'https://www.ayrshirefencinggroup.com';
  const A = 'https://ayrshirefencinggroup.com';

  it('prunes nothing: a redirect/canonical loop, and a crawl of the apex beside a sitemap of www', async () => {
    const { audit, rows } = await reconcileFixtures(
      ['xml/recon-ayrshire-sitemap.xml'],
      'crawl-exports/recon-ayrshire-internal_all.csv',
    );
    // Before, all 79 declared URLs were on the prune list, the home page among them.
    expect(byList(rows, 'prune')).toEqual([]);
    // The 9 sitemap URLs the crawl reached: each 301s to the apex page, whose canonical points back. A
    // loop, not a page to prune nor a replacement to offer: held.
    const held = rows.filter((r) => r.list === 'held');
    const loops = held.filter((r) => r.reason === 'canonical_conflict');
    expect(loops.map((r) => [r.url, r.redirectUrl, r.signals, r.reasons])).toEqual(
      [
        '/',
        '/about',
        '/contact',
        '/service/fencing',
        '/service/fence-repairs',
        '/service/decking',
        '/service/gates',
        '/service/sheds',
        '/service/garden-rooms',
      ].map((p) => [
        `${W}${p}`,
        `${A}${p}`,
        ['redirect_canonical_conflict'],
        ['canonical_conflict', 'redirects'],
      ]),
    );
    // The crawl reached 9 of the 79 URLs as declared (11.4 %): it does not match the sitemap, so the 70
    // others are held, not pruned. 8 of them it found only on the apex host, whose page names a third URL
    // (the .html one) as canonical: the evidence keeps that form.
    const mismatched = held.filter((r) => r.reason === 'crawl_mismatch');
    expect(mismatched).toHaveLength(70);
    expect(
      mismatched.filter((r) => r.variantUrl !== null).map((r) => [r.url, r.variantUrl, r.signals]),
    ).toEqual(
      [
        '/services',
        '/projects',
        '/project/wooden-gate-and-fencing',
        '/project/fencing-project-two',
        '/project/wooden-fencing',
        '/project/decking-project-four',
        '/project/decking-project-five',
        '/project/decking-project-six',
      ].map((p) => [`${W}${p}`, `${A}${p}`, ['variant_canonicalised']]),
    );
    expect(mismatched.map((r) => r.url)).toContain(`${W}/service/fence-installation-irvine`);
    expect(byList(rows, 'add')).toEqual([]);
    expect(audit?.findings?.addExcluded).toEqual({
      otherHost: 0, // www and the apex are one site
      blocked: 0,
      non200: 10, // the www URLs the sitemap does not list, all 301
      nonHtml: 10, // 8 images, a logo and a stylesheet
      canonicalised: 29, // every apex HTML page, never "noindex"
      noindex: 0,
    });
    const warnings = new Map(audit?.warnings.map((w) => [w.code, w]));
    expect(warnings.get('redirect_canonical_conflict')?.count).toBe(9);
    expect(warnings.get('variant_canonicalised')?.count).toBe(8);
    expect(warnings.has('prune_share_high')).toBe(false);
    expect(warnings.get('crawl_mismatch')?.message).toMatch(
      /reached 9 of the sitemap's 79 URLs \(11\.4%, under 20%\).*70 declared URLs it never reached are held/,
    );
  });
});

describe('contractorwebsitetemplate.com (404s, 429 rate limits, CSS and scripts)', () => {
  const C = 'https://contractorwebsitetemplate.com';

  it('prunes the 404s and the redirect, holds the 429s, and adds the 38 HTML pages only', async () => {
    const declared = [
      '/',
      '/contact/',
      '/home-1/',
      '/service-number-1/',
      '/service-number-2/',
      '/main-service-provided-1/',
      '/service-number-5/',
    ].map((p) => `${C}${p}`);
    const { audit, rows } = await reconcileFixtures(
      [urlset('contractor', declared)],
      'crawl-exports/sf-internal_all-contractorwebsitetemplate.csv',
    );
    expect(byList(rows, 'prune')).toEqual([
      [`${C}/home-1/`, 'redirects'],
      [`${C}/service-number-1/`, 'http_404'],
      [`${C}/service-number-2/`, 'http_404'],
    ]);
    expect(byList(rows, 'held')).toEqual([
      [`${C}/main-service-provided-1/`, 'server_error'],
      [`${C}/service-number-5/`, 'server_error'],
    ]);
    const add = rows.filter((r) => r.list === 'add');
    expect(add).toHaveLength(38);
    expect(add.filter((r) => RESOURCE.test(r.url))).toEqual([]);
    expect(add.map((r) => r.url)).toContain(`${C}/google-business-category-2/`);
    expect(audit?.findings?.addExcluded).toEqual({
      otherHost: 0,
      blocked: 0,
      non200: 5, // the other three 404s and two 429s
      nonHtml: 95, // 66 stylesheets, 16 scripts, 13 images
      canonicalised: 0,
      noindex: 0,
    });
  });
});

describe('kerkarmedia.com (robots.txt blocks, noindex, redirects, images without a content type)', () => {
  const K = 'https://kerkarmedia.com';

  it('names each problem, and keeps 70 .webp images with no content type off the add list', async () => {
    const declared = [
      '/',
      '/privacy-policy/',
      '/seo-for-healthcare/',
      '/seo-for-dentist/',
      '/keyword-research-for-b2b-2026/',
    ].map((p) => `${K}${p}`);
    const { audit, rows } = await reconcileFixtures(
      [urlset('kerkar', declared)],
      'crawl-exports/sf-internal_all-kerkarmedia.com.csv',
    );
    expect(byList(rows, 'prune')).toEqual([
      [`${K}/privacy-policy/`, 'blocked_by_robots'],
      [`${K}/seo-for-healthcare/`, 'noindex'],
      [`${K}/seo-for-dentist/`, 'redirects'],
      [`${K}/keyword-research-for-b2b-2026/`, 'http_404'],
    ]);
    expect(rows.find((r) => r.url === `${K}/seo-for-dentist/`)?.redirectUrl).toBe(`${K}/seo-for-dentists/`);
    const add = rows.filter((r) => r.list === 'add');
    expect(add).toHaveLength(111);
    expect(add.filter((r) => RESOURCE.test(r.url))).toEqual([]);
    expect(audit?.findings?.addExcluded).toEqual({
      otherHost: 0,
      blocked: 46, // scripts and two pages behind robots.txt
      non200: 10, // 6 more redirects and 4 more 404s
      nonHtml: 352, // 229 PNG, 50 SVG, 70 WebP without a content type, a JPEG, a script, the sitemap index
      canonicalised: 0,
      noindex: 1, // /digital-pr-b2b-link-building-2026/
    });
  });
});

describe('squareone.ca (PDF, spreadsheet, SVG and CSS resources; filtered review URLs that redirect)', () => {
  const Q = 'https://www.squareone.ca';

  it('adds the 260 undeclared HTML pages and none of the 45 resources', async () => {
    const declared = [`${Q}/resource-centres`, `${Q}/renters`, `${Q}/sales/logout`];
    const { audit, rows } = await reconcileFixtures(
      [urlset('squareone', declared)],
      'crawl-exports/sf-internal_all-squareone.ca.csv',
    );
    expect(byList(rows, 'prune')).toEqual([
      [`${Q}/renters`, 'noindex'],
      [`${Q}/sales/logout`, 'redirects'],
    ]);
    const add = rows.filter((r) => r.list === 'add');
    expect(add).toHaveLength(260);
    expect(add.filter((r) => RESOURCE.test(r.url))).toEqual([]);
    expect(audit?.findings?.addExcluded).toMatchObject({ non200: 10, nonHtml: 45, canonicalised: 0 });
  });
});

describe('ingyro (an older Screaming Frog export whose canonical URLs were anonymised away)', () => {
  const D = 'https://www.domain.com';

  it('calls a page canonicalised when the export says so, even without the canonical URL', async () => {
    const { audit, rows } = await reconcileFixtures(
      [urlset('ingyro', [`${D}/`, `${D}/search/`, `${D}/blog/`])],
      'crawl-exports/sf-internal_all-ingyro-domaincom.csv',
    );
    expect(byList(rows, 'prune')).toEqual([
      [`${D}/`, 'non_canonical'],
      [`${D}/search/`, 'blocked_by_robots'],
    ]);
    expect(rows.filter((r) => r.list === 'add')).toHaveLength(134);
    expect(audit?.findings?.addExcluded).toMatchObject({ noindex: 0, canonicalised: 0 });
  });
});

/** The locations of a fixture sitemap, in order. */
function locsOf(relative: string): string[] {
  return [...readFileSync(fixturePath(relative), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
    (m[1] as string).trim(),
  );
}

describe('a crawl that does not match the sitemap', () => {
  it('another site: the sitemap of dhmguide.com beside the crawl of kerkarmedia.com (no URL in common)', async () => {
    // xml/recon-dhmguide-sitemap.xml: kavanaghpatrick/dhm-guide-website, public/sitemap.xml (177 URLs);
    // the crawl: uday301/audits-KM, internal_all.csv (Screaming Frog, 525 rows of kerkarmedia.com).
    const { audit, rows } = await reconcileFixtures(
      ['xml/recon-dhmguide-sitemap.xml'],
      'crawl-exports/sf-internal_all-kerkarmedia.com.csv',
    );
    // Nothing is pruned on the word of a crawl of another site, and none of its pages is to be added.
    expect(byList(rows, 'prune')).toEqual([]);
    expect(byList(rows, 'add')).toEqual([]);
    const held = rows.filter((r) => r.list === 'held');
    expect(held).toHaveLength(177);
    expect(new Set(held.map((r) => r.reason))).toEqual(new Set(['crawl_mismatch']));
    // Every crawled row is another host's: counted, with the host and one of its URLs.
    expect(audit?.findings?.addExcluded).toMatchObject({ otherHost: 525, nonHtml: 0, non200: 0, blocked: 0 });
    expect(audit?.findings?.otherHosts).toEqual([
      { host: 'kerkarmedia.com', n: 525, example: expect.stringMatching(/^https:\/\/kerkarmedia\.com\//) },
    ]);
    const mismatch = audit?.warnings.find((w) => w.code === 'crawl_mismatch');
    expect(mismatch?.message).toMatch(
      /^The crawl never reached the sitemap's host: .*177 declared URLs it never reached are held/,
    );
    expect(mismatch?.count).toBe(177);
    expect(audit?.warnings.map((w) => w.code)).toContain('no_overlap');
  });

  it("the old site: a rebuilt site's sitemap beside a crawl of the site before (1 of 15 URLs in common)", async () => {
    // The rebuilt site's sitemap: the first 15 URLs of xml/recon-mikenelson-sitemap.xml (MikeNZ88/
    // MikeNelsonGuitarLessons, public/sitemap.xml) on the host of the crawl, which is the site as it
    // was: uday301/audits-KM, internal_all.csv (kerkarmedia.com). Only the home page is in both.
    const K = 'https://kerkarmedia.com';
    const rebuilt = locsOf('xml/recon-mikenelson-sitemap.xml')
      .slice(0, 15)
      .map((u) => new URL(new URL(u).pathname, K).toString());
    expect(rebuilt).toHaveLength(15);
    const { audit, rows } = await reconcileFixtures(
      [urlset('rebuilt', rebuilt)],
      'crawl-exports/sf-internal_all-kerkarmedia.com.csv',
    );
    console.log(JSON.stringify(rows.filter((r) => r.list !== 'add')), JSON.stringify(audit?.warnings));
    const held = rows.filter((r) => r.list === 'held');
    // The 14 URLs of the new site the old crawl never saw are held, not pruned.
    expect(held.map((r) => r.reason)).toEqual(Array(14).fill('crawl_mismatch'));
    expect(byList(rows, 'prune')).toEqual([]);
    const mismatch = audit?.warnings.find((w) => w.code === 'crawl_mismatch');
    expect(mismatch?.message).toMatch(/reached 1 of the sitemap's 15 URLs \(6\.7%, under 20%\)/);
    expect(audit?.warnings[0]?.code).toBe('crawl_mismatch');
  });

  it('raises none for a crawl of the same site that reached the declared URLs', async () => {
    // kerkarmedia.com's own pages, 5 of them declared (as in the test above): all reached.
    const K = 'https://kerkarmedia.com';
    const { audit } = await reconcileFixtures(
      [
        urlset('kerkar-own', [
          `${K}/`,
          `${K}/privacy-policy/`,
          `${K}/seo-for-healthcare/`,
          `${K}/what-is-seo/`,
        ]),
      ],
      'crawl-exports/sf-internal_all-kerkarmedia.com.csv',
    );
    expect(audit?.warnings.map((w) => w.code)).not.toContain('crawl_mismatch');
  });
});

describe('canonical patterns (the single-page-app bug) are problems to fix, not pages to remove', () => {
  it('holds 20 core pages whose canonical is the home page, with the pattern, its count and examples', async () => {
    // The pages: the first 21 URLs of xml/recon-mikenelson-sitemap.xml (MikeNZ88/MikeNelsonGuitarLessons,
    // a single-page app); the crawl is theirs as such an app serves them: 200 HTML, every canonical "/".
    const M = 'https://mikenelsonguitarlessons.co.nz';
    const pages = locsOf('xml/recon-mikenelson-sitemap.xml').slice(0, 21);
    const crawl = path.join(os.tmpdir(), `spa-${randomUUID()}.jsonl`);
    writeFileSync(
      crawl,
      pages
        .map((url) =>
          JSON.stringify({
            url,
            status: 200,
            content_type: 'text/html',
            canonical_url: `${M}/`,
            indexable: url === M, // the home page names itself
          }),
        )
        .join('\n'),
    );
    const { audit, rows } = await reconcileFixtures(['xml/recon-mikenelson-sitemap.xml'], crawl);
    const pattern = rows.filter((r) => r.reason === 'canonical_pattern');
    expect(pattern).toHaveLength(20); // the home page itself names itself
    expect(
      pattern.every((r) => r.list === 'held' && r.reasons.join() === 'canonical_pattern,non_canonical'),
    ).toBe(true);
    expect(rows.find((r) => r.url === M)).toBeUndefined();
    const evidence = await pool().query(
      `SELECT pattern_count AS n, pattern_examples AS examples FROM findings
        WHERE audit_id = $1 AND reason = 'canonical_pattern' LIMIT 1`,
      [audit?.id],
    );
    expect(evidence.rows[0]).toEqual({ n: 20, examples: expect.arrayContaining([`${M}/about`]) });
    expect(evidence.rows[0].examples).toHaveLength(3);
    const warning = audit?.warnings.find((w) => w.code === 'canonical_pattern');
    expect(warning).toMatchObject({ count: 20 });
    expect(warning?.examples?.[0]).toMatch(
      /^https:\/\/mikenelsonguitarlessons\.co\.nz\/ ← 20 pages \(e\.g\. /,
    );
  });

  it('leaves near-duplicates alone: a trailing-slash or query variant naming its own page is not a pattern', async () => {
    const pages = locsOf('xml/recon-mikenelson-sitemap.xml').slice(1, 8);
    const crawl = path.join(os.tmpdir(), `variants-${randomUUID()}.jsonl`);
    writeFileSync(
      crawl,
      [
        ...pages.map((url) => JSON.stringify({ url, status: 200, content_type: 'text/html' })),
        ...pages.map((url) =>
          JSON.stringify({
            url: `${url}/?ref=nav`,
            status: 200,
            content_type: 'text/html',
            canonical_url: url,
          }),
        ),
      ].join('\n'),
    );
    const declared = [...pages, ...pages.map((url) => `${url}/?ref=nav`)];
    const { rows } = await reconcileFixtures([urlset('variants', declared)], crawl);
    expect(rows.filter((r) => r.list === 'prune').map((r) => r.reason)).toEqual(
      Array(7).fill('non_canonical'),
    );
    expect(rows.some((r) => r.reason === 'canonical_pattern')).toBe(false);
  });

  it('makes an inner page a pattern from 5 pages, counted after its near-duplicates are set aside', async () => {
    const pages = locsOf('xml/recon-mikenelson-sitemap.xml').slice(1, 13);
    const [lessons, blog] = [pages[10] as string, pages[11] as string];
    const toLessons = pages.slice(0, 5);
    // Four pages name the blog, and so do two near-duplicates of it: six pages before the near-duplicate
    // test, four after it, one short of a pattern.
    const toBlog = [...pages.slice(5, 9), `${blog}/`, `${blog}?ref=nav`];
    const crawl = path.join(os.tmpdir(), `inner-pattern-${randomUUID()}.jsonl`);
    const row = (url: string, canonical: string) =>
      JSON.stringify({ url, status: 200, content_type: 'text/html', canonical_url: canonical });
    writeFileSync(
      crawl,
      [
        row(lessons, lessons),
        row(blog, blog),
        ...toLessons.map((url) => row(url, lessons)),
        ...toBlog.map((url) => row(url, blog)),
      ].join('\n'),
    );
    const { audit, rows } = await reconcileFixtures(
      [urlset('inner-pattern', [lessons, blog, ...toLessons, ...toBlog])],
      crawl,
    );
    const pattern = rows.filter((r) => r.reason === 'canonical_pattern');
    expect(pattern.map((r) => r.url).sort()).toEqual([...toLessons].sort());
    expect(pattern.every((r) => r.list === 'held')).toBe(true);
    const evidence = await pool().query(
      `SELECT DISTINCT pattern_count AS n FROM findings WHERE audit_id = $1 AND reason = 'canonical_pattern'`,
      [audit?.id],
    );
    expect(evidence.rows).toEqual([{ n: 5 }]);
    const blogRows = rows.filter((r) => toBlog.includes(r.url));
    expect(blogRows.map((r) => `${r.list} ${r.reason}`)).toEqual(Array(6).fill('prune non_canonical'));
  });
});
