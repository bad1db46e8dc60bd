import { describe, expect, it } from 'vitest';
import { createPageFetcher } from '@/lib/crawler/fetch-page';
import { CRAWL_SITE, startCrawlSite } from './crawl-site';

// The facts crawler tests assert against are derived from the site's route table; this walks the served site
// (breadth first, the way the crawler admits URLs) and checks that they describe what the servers answer.
describe('CRAWL_SITE facts', () => {
  it('match a breadth-first walk of the served site', async () => {
    const site = await startCrawlSite();
    try {
      const fetchPage = createPageFetcher({ allowPrivateNetwork: true });
      const signal = new AbortController().signal;
      const pathOf = (url: string) => {
        const parsed = new URL(url);
        parsed.pathname = parsed.pathname.replace(/;jsessionid=[^/]*/i, '');
        parsed.searchParams.delete('sid');
        return `${parsed.pathname}${parsed.search}`;
      };
      const walked = new Map<string, { status: number; depth: number }>([['/', { status: 0, depth: 0 }]]);
      const other = new Set<string>();
      const skipped = (path: string) =>
        path.startsWith('/private/') || path.startsWith('/calendar/') || path.startsWith('/search');
      const queue = ['/'];
      while (queue.length > 0) {
        const path = queue.shift() as string;
        const entry = walked.get(path) as { status: number; depth: number };
        const page = await fetchPage(`${site.origin}${path}`, signal);
        entry.status = page.status ?? -1;
        const next = [...(page.redirectUrl ? [page.redirectUrl] : []), ...(page.nofollow ? [] : page.links)];
        for (const url of next) {
          if (!url.startsWith(`${site.origin}/`)) {
            other.add(new URL(url).pathname);
            continue;
          }
          const target = pathOf(url);
          if (skipped(target) || walked.has(target)) continue;
          walked.set(target, { status: 0, depth: entry.depth + 1 });
          queue.push(target);
        }
      }
      expect(new Map([...walked].sort())).toEqual(new Map([...CRAWL_SITE.pages].sort()));
      expect([...other].sort()).toEqual([...CRAWL_SITE.otherHostPaths].sort());
      // Nothing the facts call never-fetched was asked for, and the other host saw nothing.
      const asked = new Set(site.requests.map((r) => r.path));
      for (const path of [...CRAWL_SITE.disallowed, ...CRAWL_SITE.unfollowed, ...CRAWL_SITE.jsOnly])
        expect(asked.has(path), path).toBe(false);
      expect(site.requests.filter((r) => r.origin !== site.origin)).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
