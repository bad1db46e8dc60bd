import { describe, expect, it } from 'vitest';
import { FakeClock } from '@/lib/test-support/fake-clock';
import { type CrawlRobots, type CrawlRun, runCrawl } from './engine';
import { MemoryCrawlStore } from './memory-store';
import { type CrawlerSettings, type PageFetch, type PageFetcher, unanswered } from './types';

const H = 'https://h.test';

type Answer = Partial<PageFetch>;

function page(url: string, answer: Answer): PageFetch {
  return {
    ...unanswered(url, new Date(0), 'GET'),
    status: 200,
    contentType: 'text/html',
    responseMs: 1,
    ...answer,
  };
}

const links = (...paths: string[]): Answer => ({
  links: paths.map((p) => (p.includes('://') ? p : `${H}${p}`)),
});
const redirect = (to: string, status = 301): Answer => ({
  status,
  redirectUrl: to.includes('://') ? to : `${H}${to}`,
  contentType: null,
});

/** A synthetic site: answers by URL (a Map, or a function for infinite spaces), 404 for the rest; records
 * every URL asked for, in order. */
function site(answers: Map<string, Answer> | ((url: string) => Answer | undefined)) {
  const calls: string[] = [];
  const fetcher: PageFetcher = async (url) => {
    calls.push(url);
    const answer = typeof answers === 'function' ? answers(url) : answers.get(url);
    return page(url, answer ?? { status: 404 });
  };
  return { calls, fetcher };
}

const allowAll: CrawlRobots = { refusal: () => null, crawlDelayMs: null };

function settings(over: Partial<CrawlerSettings> = {}): CrawlerSettings {
  return {
    mode: 'site',
    startUrl: `${H}/`,
    maxPages: 50_000,
    maxDepth: 10,
    concurrencyPerHost: 2,
    render: false,
    ...over,
  };
}

function crawl(
  fetcher: PageFetcher,
  over: Partial<Omit<CrawlRun, 'settings'>> & { settings?: Partial<CrawlerSettings> } = {},
) {
  const clock = new FakeClock();
  const store = over.store ?? new MemoryCrawlStore();
  const run: CrawlRun = {
    scopeHosts: ['h.test'],
    profile: 'exact',
    fetcher,
    robots: async () => allowAll,
    clock,
    ...over,
    store,
    settings: settings(over.settings),
  };
  return { clock, store: store as MemoryCrawlStore, done: clock.run(runCrawl(run)) };
}

function statuses(store: MemoryCrawlStore): Record<string, number | null> {
  return Object.fromEntries([...store.pages].map(([key, p]) => [key, p.status]).sort());
}

describe('runCrawl, site mode', () => {
  it('follows in-scope links breadth first, once per key, counting other hosts and exact inlinks', async () => {
    const { calls, fetcher } = site(
      new Map([
        [
          `${H}/`,
          links(
            '/a',
            '/a#reviews',
            '/b?sid=77',
            '/b',
            '/blog/post',
            'https://other.test/x',
            'https://other.test/y',
          ),
        ],
        [`${H}/a`, links('/', '/c', '/c')],
        [`${H}/b`, links('/a', '/blog/post')],
        [`${H}/blog/post`, links('/')],
        [`${H}/c`, { contentType: 'application/pdf' }],
      ]),
    );
    const { store, done } = crawl(fetcher);
    const progress = await done;
    expect(calls).toEqual([`${H}/`, `${H}/a`, `${H}/b`, `${H}/blog/post`, `${H}/c`]);
    expect(statuses(store)).toEqual({
      [`${H}/`]: 200,
      [`${H}/a`]: 200,
      [`${H}/b`]: 200,
      [`${H}/blog/post`]: 200,
      [`${H}/c`]: 200,
    });
    expect(Object.fromEntries([...store.inlinks].sort())).toEqual({
      [`${H}/`]: 2, // from /a and /blog/post
      [`${H}/a`]: 2, // from / (twice, with a fragment: once) and /b
      [`${H}/b`]: 1, // /b?sid=77 is /b
      [`${H}/blog/post`]: 2,
      [`${H}/c`]: 1, // linked twice from /a: one page, once
    });
    const home = store.pages.get(`${H}/`);
    expect(home).toMatchObject({ depth: 0, outlinksExternal: 2, outlinksInternal: 3 });
    expect(store.pages.get(`${H}/c`)?.depth).toBe(2);
    expect(progress).toMatchObject({
      fetched: 5,
      queued: 0,
      byStatus: { '2xx': 5 },
      requests: 6,
      stopped: null,
    });
    expect(progress.sections).toEqual([
      { section: 'h.test/', pages: 4, cut: {}, example: null },
      { section: 'h.test/blog', pages: 1, cut: {}, example: null },
    ]);
  });

  it('records a robots.txt-disallowed URL without requesting it, and asks robots.txt once per origin', async () => {
    const { calls, fetcher } = site(new Map([[`${H}/`, links('/private/x', '/open')]]));
    const origins: string[] = [];
    const { store, done } = crawl(fetcher, {
      robots: async (origin) => {
        origins.push(origin);
        return {
          crawlDelayMs: null,
          refusal: (url) =>
            url.pathname.startsWith('/private')
              ? { code: 'robots_disallowed', message: `${origin}/robots.txt disallows ${url.href}` }
              : null,
        };
      },
    });
    const progress = await done;
    expect(calls).toEqual([`${H}/`, `${H}/open`]);
    expect(origins).toEqual([H]);
    expect(store.pages.get(`${H}/private/x`)).toMatchObject({
      status: null,
      blockedByRobots: true,
      method: null,
      error: null,
      depth: 1,
    });
    expect(progress.byStatus).toEqual({ '2xx': 1, '4xx': 1, blocked: 1 });
    expect(store.inlinks.get(`${H}/private/x`)).toBe(1);
  });

  it('admits a redirect target as its own URL; the start URL moving to www brings www into scope', async () => {
    const W = 'https://www.h.test';
    const { calls, fetcher } = site(
      new Map<string, Answer>([
        [`${H}/`, redirect(`${W}/`)],
        [`${W}/`, links(`${W}/old`, `${H}/apex-link`)],
        [`${W}/old`, redirect('https://elsewhere.test/new', 302)],
        [`${H}/apex-link`, {}],
      ]),
    );
    const { store, done } = crawl(fetcher);
    const progress = await done;
    // Hosts run side by side: the two depth-2 URLs of different hosts come in either order.
    expect(calls.slice(0, 2)).toEqual([`${H}/`, `${W}/`]);
    expect(new Set(calls.slice(2))).toEqual(new Set([`${W}/old`, `${H}/apex-link`]));
    expect(calls).toHaveLength(4);
    expect(store.pages.get(`${H}/`)).toMatchObject({ status: 301, redirectUrl: `${W}/`, depth: 0 });
    expect(store.pages.get(`${W}/`)?.depth).toBe(1);
    expect(progress.scope?.joined).toEqual(['www.h.test']);
  });

  it('does not follow the links of a nofollow page, but counts its inlinks to pages already admitted', async () => {
    const { calls, fetcher } = site(
      new Map([
        [`${H}/`, links('/a', '/b')],
        [`${H}/a`, { ...links('/b', '/hidden'), nofollow: true }],
      ]),
    );
    const { store, done } = crawl(fetcher, { settings: { concurrencyPerHost: 1 } });
    await done;
    expect(calls).toEqual([`${H}/`, `${H}/a`, `${H}/b`]);
    expect(store.inlinks.get(`${H}/b`)).toBe(2);
    expect(store.pages.get(`${H}/a`)?.outlinksInternal).toBe(2);
  });

  it('cuts by depth and by pages, counting each cut URL once in its section with an example', async () => {
    // / → /s1, /s2 → /s1/a, /s1/b, /s2/a … → /deep/…
    const answers = new Map<string, Answer>([
      [`${H}/`, links('/s1/', '/s2/')],
      [`${H}/s1/`, links('/s1/a', '/s1/b', '/s2/a')],
      [`${H}/s2/`, links('/s2/a', '/s2/b', '/s1/a')],
      [`${H}/s1/a`, links('/deep/1')],
      [`${H}/s2/a`, links('/deep/1', '/deep/2')],
    ]);
    const depth = site(answers);
    const byDepth = await crawl(depth.fetcher, { settings: { maxDepth: 1 } }).done;
    expect(depth.calls).toEqual([`${H}/`, `${H}/s1/`, `${H}/s2/`]);
    expect(byDepth.sections).toEqual([
      { section: 'h.test/', pages: 3, cut: {}, example: null },
      { section: 'h.test/s1', pages: 0, cut: { max_depth: 2 }, example: `${H}/s1/a` },
      { section: 'h.test/s2', pages: 0, cut: { max_depth: 2 }, example: `${H}/s2/a` },
    ]);
    expect(byDepth.stopped).toBeNull();

    const pages = site(answers);
    const byPages = await crawl(pages.fetcher, { settings: { maxPages: 4, concurrencyPerHost: 1 } }).done;
    expect(pages.calls).toEqual([`${H}/`, `${H}/s1/`, `${H}/s2/`, `${H}/s1/a`]);
    expect(byPages.sections).toEqual([
      { section: 'h.test/', pages: 3, cut: {}, example: null },
      { section: 'h.test/deep', pages: 0, cut: { max_pages: 1 }, example: `${H}/deep/1` },
      { section: 'h.test/s1', pages: 1, cut: { max_pages: 1 }, example: `${H}/s1/b` },
      { section: 'h.test/s2', pages: 0, cut: { max_pages: 2 }, example: `${H}/s2/a` },
    ]);
    expect(byPages.stopped).toMatchObject({ reason: 'max_pages' });
    expect(byPages.stopped?.message).toContain('limit of 4 pages');
  });

  it('bounds a calendar that links to the next month forever by its pattern budget', async () => {
    const month = /^https:\/\/h\.test\/calendar\/(\d+)\/(\d+)$/;
    const { calls, fetcher } = site((url) => {
      if (url === `${H}/`) return links('/calendar/2024/1', '/about');
      if (url === `${H}/about`) return {};
      const m = month.exec(url);
      if (!m) return undefined;
      const n = Number(m[1]) * 12 + Number(m[2]);
      return links(`/calendar/${Math.floor((n + 1) / 12)}/${(n + 1) % 12}`, '/');
    });
    const progress = await crawl(fetcher, { trap: { patternBudget: 25 }, settings: { maxDepth: 1_000 } })
      .done;
    expect(calls.filter((u) => u.includes('/calendar/'))).toHaveLength(25);
    expect(calls).toContain(`${H}/about`);
    const calendar = progress.sections.find((s) => s.section === 'h.test/calendar');
    expect(calendar).toMatchObject({ pages: 25, cut: { pattern_budget: 1 } });
    expect(calendar?.example).toMatch(/\/calendar\/\d+\/\d+$/);
  });

  it('cuts by a pattern budget only what a page of that pattern breeds, not a catalog found on its categories', async () => {
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `/p/${from + i}`);
    const { calls, fetcher } = site((url) => {
      if (url === `${H}/`) return links('/cat/a', '/cat/b');
      if (url === `${H}/cat/a`) return links(...range(1, 30));
      if (url === `${H}/cat/b`) return links(...range(31, 60), '/cat/deep');
      if (url === `${H}/cat/deep`) return links('/p/500');
      const n = Number(url.split('/').pop());
      // Each product links a "related" product that only products link to; the first also /p/500, which a
      // category deeper down links too.
      return n === 1 ? links(`/p/${n + 100}`, '/p/500') : links(`/p/${n + 100}`);
    });
    const progress = await crawl(fetcher, {
      trap: { patternBudget: 10 },
      settings: { concurrencyPerHost: 1 },
    }).done;
    const products = calls.filter((u) => u.includes('/p/'));
    expect(products).toHaveLength(61);
    expect(calls).toContain(`${H}/p/500`);
    expect(calls).not.toContain(`${H}/p/101`);
    // The related products of the 61 were cut (/p/101 to /p/160 and /p/600); /p/500, cut at first, was
    // admitted from /cat/deep and no longer counts as cut.
    expect(progress.sections.find((s) => s.section === 'h.test/p')).toMatchObject({
      pages: 61,
      cut: { pattern_budget: 61 },
    });
  });

  it('bounds ever-changing query strings on one path by the query variants limit', async () => {
    const { calls, fetcher } = site((url) => {
      if (url === `${H}/`) return links('/list?page=1', '/list');
      const n = Number(new URL(url).searchParams.get('page') ?? 0);
      // Each page links to the next page and to a few sort orders (different parameter names).
      return links(`/list?page=${n + 1}`, `/list?page=${n}&sort=asc`, `/list?page=${n}&sort=desc`);
    });
    const progress = await crawl(fetcher, { trap: { queryVariants: 10 }, settings: { maxDepth: 1_000 } })
      .done;
    const withQuery = calls.filter((u) => u.includes('?'));
    expect(withQuery).toHaveLength(10);
    expect(calls).toContain(`${H}/list`);
    expect(progress.sections.find((s) => s.section === 'h.test/')?.cut.query_variants).toBeGreaterThan(0);
  });
});

describe('runCrawl, list mode', () => {
  it('fetches exactly the declared URLs and their in-scope redirects, following no links', async () => {
    const { calls, fetcher } = site(
      new Map<string, Answer>([
        [`${H}/a`, links('/not-followed')],
        [`${H}/moved`, redirect('/target')],
        [`${H}/away`, redirect('https://elsewhere.test/')],
        [`${H}/target`, {}],
      ]),
    );
    const batches = async function* () {
      yield [`${H}/a`, `${H}/moved`];
      yield [`${H}/away`, `${H}/a#dup`, `${H}/gone`];
    };
    const { store, done } = crawl(fetcher, { settings: { mode: 'list', startUrl: null }, seeds: batches() });
    const progress = await done;
    expect(new Set(calls)).toEqual(
      new Set([`${H}/a`, `${H}/moved`, `${H}/away`, `${H}/gone`, `${H}/target`]),
    );
    expect(calls).toHaveLength(5);
    expect(statuses(store)).toEqual({
      [`${H}/a`]: 200,
      [`${H}/away`]: 301,
      [`${H}/gone`]: 404,
      [`${H}/moved`]: 301,
      [`${H}/target`]: 200,
    });
    expect(store.pages.get(`${H}/target`)?.depth).toBe(1);
    expect(progress.fetched).toBe(5);
  });

  it('cuts declared URLs past maxPages in their sections, and applies no trap budget to a list', async () => {
    const seeds = Array.from({ length: 30 }, (_, i) => `${H}/p/${i}`);
    const { calls, fetcher } = site(() => ({}));
    const progress = await crawl(fetcher, {
      settings: { mode: 'list', startUrl: null, maxPages: 20 },
      seeds,
      trap: { patternBudget: 5 },
    }).done;
    expect(calls).toHaveLength(20);
    expect(progress.sections).toEqual([
      { section: 'h.test/p', pages: 20, cut: { max_pages: 10 }, example: `${H}/p/20` },
    ]);
  });
});

describe('runCrawl, politeness', () => {
  it('starts requests on a host no closer than its Crawl-delay', async () => {
    const clock = new FakeClock();
    const starts: number[] = [];
    const answers = new Map([[`${H}/`, links('/1', '/2', '/3')]]);
    const fetcher: PageFetcher = async (url) => {
      starts.push(clock.now());
      await clock.sleep(5);
      return page(url, answers.get(url) ?? {});
    };
    await clock.run(
      runCrawl({
        settings: settings({ concurrencyPerHost: 4 }),
        scopeHosts: ['h.test'],
        profile: 'exact',
        fetcher,
        robots: async () => ({ refusal: () => null, crawlDelayMs: 2_000 }),
        store: new MemoryCrawlStore(),
        clock,
      }),
    );
    expect(starts).toEqual([0, 2_000, 4_000, 6_000]);
  });

  it('waits out a Retry-After and asks again; a host asking for too long is given up, its URLs cut', async () => {
    let refusedOnce = false;
    const { calls, fetcher } = site((url) => {
      if (url === `${H}/`) return links('/a', '/b', '/c');
      if (url === `${H}/a` && !refusedOnce) {
        refusedOnce = true;
        return { status: 429, retryAfterMs: 3_000 };
      }
      if (url === `${H}/b`) return { status: 503, retryAfterMs: 600_000 };
      return {};
    });
    const { store, clock, done } = crawl(fetcher, { settings: { concurrencyPerHost: 1 } });
    const progress = await done;
    expect(calls).toEqual([`${H}/`, `${H}/a`, `${H}/a`, `${H}/b`]);
    expect(clock.now()).toBeGreaterThanOrEqual(3_000);
    expect(store.pages.get(`${H}/a`)?.status).toBe(200);
    expect(store.pages.get(`${H}/b`)?.status).toBe(503);
    expect(progress.stopped).toMatchObject({ reason: 'host_refused' });
    expect(progress.stopped?.message).toContain('longer than the 60 s a crawl waits');
    expect(progress.sections).toEqual([
      { section: 'h.test/', pages: 4, cut: { host_refused: 1 }, example: `${H}/c` },
    ]);
  });

  it('stops as failing when most recent requests fail, saying why, and cuts what was left', async () => {
    const { calls, fetcher } = site((url) => {
      if (url === `${H}/`) return links(...Array.from({ length: 200 }, (_, i) => `/p${i}`));
      return { status: null, error: { code: 'timeout', message: `${url} timed out after 15 s` } };
    });
    const { store, done } = crawl(fetcher);
    const progress = await done;
    expect(progress.stopped?.reason).toBe('failing');
    // The home page answered; the 49 requests after it timed out: the window is full and 98 % failed.
    expect(progress.stopped?.message).toMatch(
      /^The crawl stopped: 49 of its last 50 requests failed \(49 timeout\); the last: https:\/\/h\.test\/p\d+ timed out/,
    );
    expect(calls.length).toBeLessThan(60);
    const cut = progress.sections[0]?.cut.failing ?? 0;
    expect(store.pagesSaved + cut).toBe(201);
    expect(progress.queued).toBe(0);
  });
});

/** A site of `size` pages: a tree (each page links its children) with links across sections and back. */
function bigSite(size: number) {
  return (url: string): Answer | undefined => {
    const m = /^https:\/\/h\.test\/(?:s(\d+)\/)?p(\d+)$/.exec(url);
    const n = url === `${H}/` ? 0 : m ? Number(m[2]) : -1;
    if (n < 0 || n >= size) return undefined;
    const href = (i: number) => (i === 0 ? '/' : `/s${i % 7}/p${i}`);
    const out = [href(Math.floor(n / 3)), href((n * 7 + 3) % size)];
    for (let c = n * 3 + 1; c <= n * 3 + 3 && c < size; c++) out.push(href(c));
    if (n % 50 === 0) out.push('/missing', 'https://other.test/');
    return links(...out);
  };
}

describe('runCrawl, resume', () => {
  it('after a crash between flushes, a resumed crawl ends with exactly the uninterrupted result', async () => {
    const reference = site(bigSite(600));
    const whole = crawl(reference.fetcher, { flushEveryPages: 25 });
    const done = await whole.done;
    expect(done.fetched).toBe(601); // 600 pages and /missing

    const store = new MemoryCrawlStore({ failOnSave: 6 });
    const first = site(bigSite(600));
    await expect(crawl(first.fetcher, { store, flushEveryPages: 25 }).done).rejects.toThrow(
      'simulated crash on save 6',
    );
    const savedBefore = store.pagesSaved;
    expect(savedBefore).toBeGreaterThan(0);
    expect(savedBefore).toBeLessThan(600);

    store.failOnSave = null;
    const second = site(bigSite(600));
    const resumed = await crawl(second.fetcher, { store, flushEveryPages: 25 }).done;
    // Only what the crash lost is fetched again: nothing saved is asked twice.
    const saved = new Set([...store.items.values()].filter((i) => i.done).map((i) => i.url));
    expect(second.calls.length).toBe(601 - savedBefore);
    expect(first.calls.length + second.calls.length - 601).toBeLessThanOrEqual(25 * 4 + 2);
    expect(saved.size).toBe(601);

    expect(statuses(store)).toEqual(statuses(whole.store));
    expect(Object.fromEntries([...store.inlinks].sort())).toEqual(
      Object.fromEntries([...whole.store.inlinks].sort()),
    );
    const depths = (s: MemoryCrawlStore) =>
      Object.fromEntries([...s.pages].map(([k, p]) => [k, p.depth]).sort());
    expect(depths(store)).toEqual(depths(whole.store));
    expect(resumed).toMatchObject({
      fetched: done.fetched,
      byStatus: done.byStatus,
      sections: done.sections,
      queued: 0,
    });
  });
});

describe('runCrawl, flushes', () => {
  it('saves every N pages, and within the interval when pages come slowly', async () => {
    const sizes: number[] = [];
    const times: number[] = [];
    const clock = new FakeClock();
    const store = new MemoryCrawlStore();
    const save = store.save.bind(store);
    store.save = async (flush) => {
      sizes.push(flush.pages.length);
      times.push(clock.now());
      return save(flush);
    };
    const answers = bigSite(40);
    // Slow pages: one every 400 ms (one at a time), so 1 s passes long before 200 pages.
    const fetcher: PageFetcher = async (url) => {
      await clock.sleep(400);
      return page(url, answers(url) ?? { status: 404 });
    };
    await clock.run(
      runCrawl({
        settings: settings({ concurrencyPerHost: 1 }),
        scopeHosts: ['h.test'],
        profile: 'exact',
        fetcher,
        robots: async () => allowAll,
        store,
        clock,
      }),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(41); // 40 pages and /missing
    // No page waited much more than the interval: each save holds the 2 or 3 pages of about a second.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeLessThanOrEqual(1_200);

    const fast = site(bigSite(500));
    const counted = new MemoryCrawlStore();
    const pagesPerSave: number[] = [];
    const saveFast = counted.save.bind(counted);
    counted.save = async (flush) => {
      pagesPerSave.push(flush.pages.length);
      return saveFast(flush);
    };
    await crawl(fast.fetcher, { store: counted, flushEveryPages: 50 }).done;
    expect(pagesPerSave.reduce((a, b) => a + b, 0)).toBe(501);
    // Saves start at 50 pages; pages answered while one is under way join the next.
    expect(pagesPerSave.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...pagesPerSave)).toBeLessThan(100);
  });
});

describe('runCrawl, list mode resume', () => {
  it('given the list again after a crash, fetches only what was not saved and ends with the same rows', async () => {
    const seeds = Array.from({ length: 120 }, (_, i) => `${H}/item/${i}${i % 10 === 0 ? '-old' : ''}`);
    const answers = (url: string): Answer | undefined =>
      url.endsWith('-old') ? redirect(url.replace(/-old$/, '')) : {};
    const whole = crawl(site(answers).fetcher, {
      settings: { mode: 'list', startUrl: null },
      seeds,
      flushEveryPages: 10,
    });
    await whole.done;

    const store = new MemoryCrawlStore({ failOnSave: 4 });
    const first = site(answers);
    await expect(
      crawl(first.fetcher, { store, settings: { mode: 'list', startUrl: null }, seeds, flushEveryPages: 10 })
        .done,
    ).rejects.toThrow('simulated crash');
    const saved = store.pagesSaved;
    store.failOnSave = null;
    const second = site(answers);
    await crawl(second.fetcher, {
      store,
      settings: { mode: 'list', startUrl: null },
      seeds,
      flushEveryPages: 10,
    }).done;
    expect(saved).toBeGreaterThan(0);
    expect(second.calls).toHaveLength(132 - saved);
    expect(statuses(store)).toEqual(statuses(whole.store));
    expect(Object.keys(statuses(store))).toHaveLength(132);
  });
});

describe('runCrawl, cancel', () => {
  it('aborts requests in flight, saves nothing after, and rejects with the reason', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const aborted: string[] = [];
    let started = 0;
    const fetcher: PageFetcher = (url, signal) => {
      started++;
      if (url === `${H}/`)
        return Promise.resolve(page(url, links(...Array.from({ length: 50 }, (_, i) => `/p${i}`))));
      // Every other page hangs until cancelled; the test cancels once two are in flight.
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push(url);
          reject(signal.reason);
        });
        if (started === 3) controller.abort(new Error('stopped by the user'));
      });
    };
    const store = new MemoryCrawlStore();
    let flushes = 0;
    const running = clock.run(
      runCrawl({
        settings: settings(),
        scopeHosts: ['h.test'],
        profile: 'exact',
        fetcher,
        robots: async () => allowAll,
        store,
        signal: controller.signal,
        onFlush: () => flushes++,
        clock,
      }),
    );
    await expect(running).rejects.toThrow('stopped by the user');
    expect(aborted).toEqual([`${H}/p0`, `${H}/p1`]);
    const saves = store.saves;
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(store.saves).toBe(saves);
    expect(flushes).toBe(saves);
    expect(store.pagesSaved).toBeLessThanOrEqual(1);
  });
});
