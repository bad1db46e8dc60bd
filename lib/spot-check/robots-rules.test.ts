import { describe, expect, it } from 'vitest';
import { startCrawlSite } from '@/lib/test-support/crawl-site';
import { crawlDelayMsOf, fetchRobotsRules, MAX_CRAWL_DELAY_MS } from './robots-rules';

const TOKEN = 'SitemapAuditBot';

async function rulesFor(spec: Parameters<typeof startCrawlSite>[0]) {
  const site = await startCrawlSite(spec);
  try {
    const rules = await fetchRobotsRules(site.origin, {
      token: TOKEN,
      userAgent: `${TOKEN}/0.1`,
      allowPrivateNetwork: true,
      // A failing robots.txt is retried once; its backoff is not waited out here.
      testHooks: { sleep: async () => {} },
    });
    return { rules, origin: site.origin, requests: site.requests };
  } finally {
    await site.close();
  }
}

describe('fetchRobotsRules Crawl-delay', () => {
  it('reads a fractional Crawl-delay in ms, beside the Disallow rules', async () => {
    const { rules, origin, requests } = await rulesFor({ crawlDelaySeconds: 0.5 });
    expect(rules.crawlDelayMs).toBe(500);
    expect(rules.refusal(new URL(`${origin}/private/x`))?.code).toBe('robots_disallowed');
    expect(rules.refusal(new URL(`${origin}/blog/`))).toBeNull();
    expect(requests.map((r) => r.path)).toEqual(['/robots.txt']);
  });

  it('takes the delay of the group naming the token over the * group, and none when that group has none', async () => {
    const own = await rulesFor({
      robotsTxt: `User-agent: *\nCrawl-delay: 10\n\nUser-agent: ${TOKEN}\nCrawl-delay: 2\nDisallow: /x\n`,
    });
    expect(own.rules.crawlDelayMs).toBe(2000);
    const ownWithout = await rulesFor({
      robotsTxt: `User-agent: *\nCrawl-delay: 10\n\nUser-agent: ${TOKEN}\nDisallow: /x\n`,
    });
    expect(ownWithout.rules.crawlDelayMs).toBeNull();
  });

  it('caps an absurd delay at 60 s and ignores one that is no number', async () => {
    expect((await rulesFor({ crawlDelaySeconds: 3600 })).rules.crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(
      (await rulesFor({ robotsTxt: 'User-agent: *\nCrawl-delay: soon\n' })).rules.crawlDelayMs,
    ).toBeNull();
    expect((await rulesFor({})).rules.crawlDelayMs).toBeNull();
  });

  it('has no delay when robots.txt cannot be read (everything is then disallowed)', async () => {
    const { rules, origin } = await rulesFor({ failing: 'status', crawlDelaySeconds: 5 });
    expect(rules.crawlDelayMs).toBeNull();
    expect(rules.refusal(new URL(`${origin}/blog/`))?.code).toBe('robots_disallowed');
  });
});

describe('crawlDelayMsOf', () => {
  it('turns seconds into whole ms, capped, and unset or unreadable values into null', () => {
    expect(crawlDelayMsOf(1.25)).toBe(1250);
    expect(crawlDelayMsOf(0)).toBe(0);
    expect(crawlDelayMsOf(61)).toBe(60_000);
    expect(crawlDelayMsOf(undefined)).toBeNull();
    expect(crawlDelayMsOf(Number.NaN)).toBeNull();
    expect(crawlDelayMsOf(-1)).toBeNull();
  });
});
