// A crawl put together: the plain or the rendering fetcher, robots.txt per origin read for the product's
// User-Agent, around the engine. Database-free (the store is given), so the benchmark runs it as it is.
import { DEFAULT_USER_AGENT } from '@/lib/net/options';
import { fetchRobotsRules, robotsTokenOf } from '@/lib/spot-check/robots-rules';
import { type CrawlRun, runCrawl } from './engine';
import { createPageFetcher } from './fetch-page';
import type { CrawlProgress } from './types';

/** The crawler's User-Agent: CRAWLER_USER_AGENT, else the product's (USER_AGENT, else its default with
 * a contact URL). Its product token is what robots.txt groups are matched against. */
function crawlerUserAgent(env: NodeJS.ProcessEnv = process.env): string {
  return env.CRAWLER_USER_AGENT?.trim() || env.USER_AGENT?.trim() || DEFAULT_USER_AGENT;
}

export type CrawlSiteInput = Omit<CrawlRun, 'fetcher' | 'robots'> & {
  /** Network rules for tests (loopback servers); production takes lib/net's environment rules. */
  net?: { allowPrivateNetwork?: boolean; allowedPorts?: number[] };
};

export async function crawlSite(input: CrawlSiteInput): Promise<CrawlProgress> {
  const { net, ...run } = input;
  const userAgent = crawlerUserAgent();
  const token = robotsTokenOf(userAgent);
  // playwright-core is loaded only for a rendered crawl: it would cost every plain crawl about 60 MB.
  const rendering = run.settings.render
    ? (await import('./render')).createRenderingFetcher({ userAgent, ...net })
    : null;
  const fetcher = rendering?.fetch ?? createPageFetcher({ userAgent, ...net });
  try {
    return await runCrawl({
      ...run,
      fetcher,
      robots: (origin, signal) => fetchRobotsRules(origin, { token, userAgent, signal, ...net }),
    });
  } finally {
    await rendering?.close();
  }
}
