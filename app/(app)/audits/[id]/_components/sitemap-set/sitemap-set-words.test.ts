import { describe, expect, it } from 'vitest';
import type { SetFileChange } from '@/lib/sitemap-set/schema';
import { changeText, isBaseValid } from './sitemap-set-words';

const change = (patch: Partial<SetFileChange>): SetFileChange => ({
  name: 'sitemap-1.xml',
  source: 'https://example.com/sitemap-1.xml',
  kind: 'urlset',
  status: 'changed',
  entries: 10,
  urls: 8,
  removed: 2,
  replaced: 0,
  added: 0,
  renamedFrom: null,
  parts: ['sitemap-1.xml'],
  ...patch,
});

describe('isBaseValid', () => {
  it('takes an empty field (the sitemaps stay where they are) or an http(s) URL without query', () => {
    expect(isBaseValid('')).toBe(true);
    expect(isBaseValid('https://cdn.example.com/maps/')).toBe(true);
    expect(isBaseValid('ftp://example.com/')).toBe(false);
    expect(isBaseValid('https://example.com/?x=1')).toBe(false);
    expect(isBaseValid('example.com/maps')).toBe(false);
  });
});

describe('changeText', () => {
  it('says what a rewritten file loses, gains and becomes', () => {
    expect(changeText(change({}))).toBe('10 URLs → 8 URLs; 2 removed.');
    expect(
      changeText(
        change({ urls: 10, removed: 0, replaced: 3, parts: ['a.xml', 'b.xml'], renamedFrom: 'a b.xml' }),
      ),
    ).toBe('10 URLs; 3 replaced by the crawled URL; split into a.xml, b.xml; renamed from “a b.xml”.');
  });
  it('counts an index in children and says a file left out entirely is dropped', () => {
    expect(changeText(change({ kind: 'index', entries: 3, urls: 2, removed: 1 }))).toBe(
      '3 children → 2 children; 1 dropped.',
    );
    expect(changeText(change({ status: 'dropped', urls: 0, removed: 10, parts: [] }))).toBe(
      'every entry removed: left out of the set and of its index.',
    );
  });
  it('explains files the set does not rewrite, and the additions file', () => {
    expect(changeText(change({ status: 'kept_as_is', kind: 'feed' }))).toBe(
      'A feed: not rewritten, its index keeps listing it.',
    );
    expect(changeText(change({ status: 'kept_as_is', kind: 'unread' }))).toBe(
      'Not read in full: not rewritten, its index keeps listing it.',
    );
    expect(changeText(change({ kind: 'added', status: 'new', added: 1 }))).toBe(
      '1 URL added (approved add rows).',
    );
  });
});
