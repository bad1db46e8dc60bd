import { describe, expect, it } from 'vitest';
import type { CrawlerSettings, SectionCoverage } from '@/lib/crawler/types';
import {
  crawlerSettingsRows,
  crawlingWords,
  cutSectionsWords,
  sectionCoverageWords,
  sectionLabel,
  sectionsHost,
  sortSections,
  statusCountsWords,
  statusTotals,
  stoppedTitle,
} from './crawler-words';

const settings = (overrides: Partial<CrawlerSettings> = {}): CrawlerSettings => ({
  mode: 'site',
  startUrl: 'https://www.example.com/',
  maxPages: 50_000,
  maxDepth: 10,
  concurrencyPerHost: 2,
  render: false,
  ...overrides,
});

const section = (name: string, pages: number, cut: SectionCoverage['cut'] = {}): SectionCoverage => ({
  section: name,
  pages,
  cut,
  example: Object.keys(cut).length > 0 ? `https://${name}x` : null,
});

describe('crawlerSettingsRows', () => {
  it('says how a site crawl was asked for', () => {
    expect(crawlerSettingsRows(settings({ render: true, maxDepth: 1 }))).toEqual([
      { term: 'What was crawled', value: 'Links followed from the start URL' },
      { term: 'Start URL', value: 'https://www.example.com/', isUrl: true },
      { term: 'Max pages', value: '50,000' },
      { term: 'Max depth', value: '1 click from the start URL' },
      { term: 'Requests at once per host', value: '2' },
      { term: 'Rendering', value: 'Rendered in headless Chromium' },
    ]);
  });

  it('leaves out what a list crawl does not use, and names the default start', () => {
    const list = crawlerSettingsRows(settings({ mode: 'list' }));
    expect(list.map((row) => row.term)).toEqual([
      'What was crawled',
      'Max pages',
      'Requests at once per host',
      'Rendering',
    ]);
    expect(list[0]?.value).toMatch(/Exactly the sitemaps’ URLs/);
    expect(list[3]?.value).toBe('HTML as served (no JavaScript)');
    expect(crawlerSettingsRows(settings({ startUrl: null }))[1]).toEqual({
      term: 'Start URL',
      value: 'The site root of the first sitemap URL',
    });
  });
});

describe('status totals', () => {
  it('lists classes in report order, unknown ones after, none of the empty ones', () => {
    const totals = statusTotals({ blocked: 1, '4xx': 2, '2xx': 300, teapot: 1, '5xx': 0 });
    expect(totals.map((row) => [row.label, row.count])).toEqual([
      ['2xx OK', 300],
      ['4xx client errors', 2],
      ['Blocked by robots.txt', 1],
      ['teapot', 1],
    ]);
    expect(statusTotals({})).toEqual([]);
  });

  it('words the running crawl', () => {
    expect(crawlingWords({ fetched: 1, queued: 1204 })).toBe('1 page fetched · 1,204 queued');
    expect(crawlingWords({ fetched: 0, queued: 0 })).toBe('0 pages fetched · 0 queued');
    expect(statusCountsWords({ '2xx': 1300, '3xx': 0, '4xx': 2, blocked: 1 })).toBe(
      '2xx 1,300 · 4xx 2 · blocked 1',
    );
  });
});

describe('sections', () => {
  it('puts cut sections first, the most cut first, then the complete ones by size', () => {
    const sorted = sortSections([
      section('h/about', 3),
      section('h/blog', 40, { max_pages: 5 }),
      section('h/', 12),
      section('h/shop', 10, { max_depth: 900, pattern_budget: 20 }),
      section('h/a', 12),
    ]);
    expect(sorted.map((s) => s.section)).toEqual(['h/shop', 'h/blog', 'h/', 'h/a', 'h/about']);
  });

  it('says whether a section is complete, and what cut it', () => {
    expect(sectionCoverageWords(section('h/', 3))).toBe('Complete');
    expect(sectionCoverageWords(section('h/', 3, { max_pages: 0 }))).toBe('Complete');
    expect(sectionCoverageWords(section('h/blog', 3, { max_pages: 1 }))).toBe(
      'Cut: 1 URL not fetched, by the page limit',
    );
    expect(
      sectionCoverageWords(section('h/shop', 3, { pattern_budget: 20, max_depth: 1200, query_variants: 20 })),
    ).toBe(
      'Cut: 1,240 URLs not fetched, by the depth limit (1,200), a repeating URL pattern (20) and too many query strings (20)',
    );
    // A reason a newer worker sends is shown as it is.
    expect(sectionCoverageWords(section('h/x', 1, { robots_budget: 2 } as SectionCoverage['cut']))).toBe(
      'Cut: 2 URLs not fetched, by robots_budget',
    );
  });

  it('counts the cut sections for the note above the table', () => {
    expect(cutSectionsWords([section('h/', 1)])).toBe('Every section was crawled completely.');
    expect(cutSectionsWords([section('h/', 1)], true)).toBe('No section has been cut by a limit so far.');
    // Stopped early: pages never fetched could link anywhere, so nothing counts as complete.
    expect(cutSectionsWords([section('h/', 1)], false, true)).toMatch(
      /^The crawl stopped early, so no section/,
    );
    expect(sectionCoverageWords(section('h/', 1), true)).toBe('Not finished (the crawl stopped)');
    expect(sectionCoverageWords(section('h/', 1))).toBe('Complete');
    expect(cutSectionsWords([section('h/', 1), section('h/b', 1, { max_pages: 3 })])).toMatch(
      /^1 section was cut by a limit: .* held, not pruned\.$/,
    );
    expect(
      cutSectionsWords([section('h/a', 1, { max_depth: 1 }), section('h/b', 1, { max_pages: 3 })]),
    ).toMatch(/^2 sections were cut/);
  });

  it('names sections by their path when the crawl saw one host', () => {
    const one = [section('www.a.test/blog', 1), section('www.a.test/', 1)];
    expect(sectionsHost(one)).toBe('www.a.test');
    expect(one.map((s) => sectionLabel(s, 'www.a.test'))).toEqual(['/blog', '/']);
    const two = [...one, section('a.test/', 1)];
    expect(sectionsHost(two)).toBeNull();
    expect(two.map((s) => sectionLabel(s, null))).toEqual(['www.a.test/blog', 'www.a.test/', 'a.test/']);
    expect(sectionsHost([])).toBeNull();
  });

  it('titles an early stop by its reason', () => {
    expect(stoppedTitle('failing')).toBe('The crawl stopped early: failing requests');
    expect(stoppedTitle('host_refused')).toBe('The crawl stopped early: the host refusing requests');
  });
});
