// The tree diff's collector on its own, over enough URLs that its hash table grows several times.
import { describe, expect, it } from 'vitest';
import { newParseStats } from '@/lib/sitemap/parse';
import type { SitemapUrlEntry } from '@/lib/sitemap/types';
import { DiffCollector } from './diff';
import type { FileMeta } from './types';

const meta: FileMeta = {
  label: 'sitemap.xml',
  requestedUrl: null,
  finalUrl: null,
  base: 'https://a.example/sitemap.xml',
  contentType: null,
  contentEncoding: null,
  name: 'sitemap.xml',
  bom: false,
};

function entry(loc: string, lastmodRaw: string | null): SitemapUrlEntry {
  const lastmod = lastmodRaw === null || Number.isNaN(Date.parse(lastmodRaw)) ? null : new Date(lastmodRaw);
  return {
    type: 'url',
    loc,
    lastmodRaw,
    lastmod,
    changefreq: null,
    priority: null,
    images: 0,
    videos: 0,
    news: 0,
    alternates: 0,
    position: 1,
    line: 1,
  };
}

function feed(collector: DiffCollector, entries: SitemapUrlEntry[]): void {
  collector.beginFile(meta);
  collector.addEntries(entries);
  collector.endFile(newParseStats(), null);
}

describe('DiffCollector', () => {
  it('counts added, removed and changed URLs exactly over 15,000 URLs, examples bounded', () => {
    const range = (from: number, to: number, lastmod: (i: number) => string | null) =>
      Array.from({ length: to - from }, (_, k) => entry(`/p/${from + k}`, lastmod(from + k)));
    const oldTree = range(0, 10_000, () => '2024-01-01');
    // Of the 5,000 kept URLs, every 10th changes its lastmod, every 100th loses it, one gets an invalid one.
    const newTree = range(5_000, 15_000, (i) =>
      i === 5_001 ? 'yesterday' : i % 100 === 0 ? null : i % 10 === 0 ? '2024-02-01' : '2024-01-01',
    );
    const collector = new DiffCollector(3);
    for (const phase of ['old', 'new', 'removed'] as const) {
      collector.phase = phase;
      feed(collector, phase === 'new' ? newTree : oldTree);
    }
    const { result } = collector;
    expect(result.old).toEqual({ files: 1, urls: 10_000 });
    expect(result.new).toEqual({ files: 1, urls: 10_000 });
    expect(result.added.count).toBe(5_000);
    expect(result.added.examples).toEqual([
      'https://a.example/p/10000',
      'https://a.example/p/10001',
      'https://a.example/p/10002',
    ]);
    expect(result.removed.count).toBe(5_000);
    expect(result.removed.examples[0]).toBe('https://a.example/p/0');
    expect(result.lastmodChanged.count).toBe(500 + 1);
    expect(result.lastmodChanged.examples).toEqual([
      { url: 'https://a.example/p/5000', old: '2024-01-01T00:00:00.000Z', new: null },
      { url: 'https://a.example/p/5001', old: '2024-01-01T00:00:00.000Z', new: '(invalid)' },
      { url: 'https://a.example/p/5010', old: '2024-01-01T00:00:00.000Z', new: '2024-02-01T00:00:00.000Z' },
    ]);
  });

  it('counts a URL listed twice once, in either tree', () => {
    const collector = new DiffCollector(10);
    feed(collector, [entry('https://a.example/x', null), entry('https://a.example/x', null)]);
    collector.phase = 'new';
    feed(collector, [entry('https://a.example/y', null), entry('https://a.example/y', null)]);
    collector.phase = 'removed';
    feed(collector, [entry('https://a.example/x', null), entry('https://a.example/x', null)]);
    expect(collector.result.added).toEqual({ count: 1, examples: ['https://a.example/y'] });
    expect(collector.result.removed).toEqual({ count: 1, examples: ['https://a.example/x'] });
  });
});
