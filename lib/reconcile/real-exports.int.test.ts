// Real Screaming Frog exports from ../shared/fixtures reconciled as a new user would, with the lists an
// SEO would sign off on written out by hand.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
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
      storedPath: fixturePath(crawl),
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

  it('holds the redirecting www URLs as canonical_conflict, adds no image, CSS or canonicalised page', async () => {
    const { audit, rows } = await reconcileFixtures(
      ['xml/recon-ayrshire-sitemap.xml'],
      'crawl-exports/recon-ayrshire-internal_all.csv',
    );
    const prune = rows.filter((r) => r.list === 'prune');
    expect(prune).toHaveLength(70);
    // The 9 sitemap URLs the crawl reached: each 301s to the apex page, whose canonical points back. A
    // loop, not a page to prune (the home page among them) nor a replacement to offer: held.
    const held = rows.filter((r) => r.list === 'held');
    expect(held.map((r) => [r.url, r.redirectUrl, r.signals, r.reasons])).toEqual(
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
    // 8 were crawled only on the apex host, whose page names a third URL (the .html one) as canonical.
    expect(
      prune.filter((r) => r.reason === 'url_variant').map((r) => [r.url, r.variantUrl, r.signals]),
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
    // The rest the crawl never reached (58 crawled rows against 79 declared URLs).
    expect(prune.filter((r) => r.reason === 'unreached_by_crawl')).toHaveLength(62);
    expect(prune.map((r) => r.url)).toContain(`${W}/service/fence-installation-irvine`);
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
    expect(warnings.has('prune_share_high')).toBe(true);
    // The crawl is of the same site (it reached the sitemap's sections): no mismatch.
    expect(warnings.has('crawl_mismatch')).toBe(false);
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
