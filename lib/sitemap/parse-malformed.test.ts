import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { collectFixture, locs, warningCodes } from '@/lib/test-support/sitemap-sources';
import { SitemapParseError, type SitemapUrlEntry } from './types';

describe('malformed fixtures: failures', () => {
  it.each([
    ['malformed/adv-error_sitemap.xml', 'xml_malformed', 0],
    ['malformed/sm-unescaped-lt.xml', 'xml_malformed', 0],
    ['malformed/sm-index-unescaped-lt.xml', 'xml_malformed', 1],
    ['malformed/webignition-sitemap.invalid-unclosed-url-tag.xml', 'xml_malformed', 0],
    ['malformed/webignition-empty-document.html', 'not_a_sitemap', 0],
    ['malformed/webignition-plain-not-urls.txt', 'not_a_sitemap', 0],
  ])('%s fails with %s after %i complete entries', async (file, code, entries) => {
    const result = await collectFixture(file);
    expect(result.error).toBeInstanceOf(SitemapParseError);
    expect(result.error?.code).toBe(code);
    expect(result.entries).toHaveLength(entries);
    expect(result.stats.entries).toBe(entries);
  });

  it('locates the unescaped < with line and column', async () => {
    const result = await collectFixture('malformed/sm-unescaped-lt.xml');
    expect(result.error).toMatchObject({ line: 6, column: 25 });
    expect(result.error?.message).toMatch(/^line 6, column 25: /);
  });

  it('keeps the index entry parsed before the broken <lastmod>', async () => {
    const result = await collectFixture('malformed/sm-index-unescaped-lt.xml');
    expect(locs(result)).toEqual(['https://www.example.com/sitemap1.xml.gz']);
    expect(result.error?.line).toBe(11);
  });

  it('says an HTML page is not a sitemap', async () => {
    const result = await collectFixture('malformed/webignition-empty-document.html');
    expect(result.error?.message).toBe('an HTML page was served where a sitemap was expected');
    expect(result.stats.kind).toBeNull();
  });

  it('treats a text file without URLs as not a sitemap', async () => {
    const result = await collectFixture('malformed/webignition-plain-not-urls.txt');
    expect(result.stats.kind).toBeNull();
    expect(warningCodes(result)).toEqual(['non_url_lines']);
  });
});

describe('malformed fixtures: lenient reads', () => {
  it('reads the wrong google.com namespace with trimmed values (cc-sitemap.badns)', async () => {
    const result = await collectFixture('malformed/cc-sitemap.badns.xml');
    expect(locs(result)).toEqual(['http://www.example.com/1', 'http://www.example.com/2']);
    expect((result.entries[1] as SitemapUrlEntry).changefreq).toBe('daily');
    expect(warningCodes(result)).toEqual(['nonstandard_namespace']);
  });

  it('reads a urlset without namespace with a missing_namespace warning', async () => {
    const result = await collectFixture('malformed/webignition-sitemap.no-namespace.xml');
    expect(locs(result)).toEqual([1, 2, 3].map((n) => `http://example.com/xml/${n}`));
    expect(result.stats.warnings).toEqual([expect.objectContaining({ code: 'missing_namespace', line: 2 })]);
  });

  // Policy: a <sitemap> (or <url>) with no child elements whose text is an absolute http(s) URL is
  // taken as its loc, with one 'bare_loc' warning per file. crawler-commons reads these the same way,
  // and following them beats silently dropping a whole index; the warning tells the user to fix it.
  it('takes bare URLs in <sitemap> without <loc> and warns once (cc-sitemap.index-missing-loc)', async () => {
    const result = await collectFixture('malformed/cc-sitemap.index-missing-loc.xml');
    expect(result.entries).toHaveLength(15);
    expect(result.entries.every((entry) => entry.type === 'sitemap')).toBe(true);
    expect(locs(result)[0]).toBe('https://example.com/sitemap.jss?portalCode=10260&lang=en');
    expect(result.stats.warnings).toEqual([
      expect.objectContaining({ code: 'bare_loc', line: 3, message: expect.stringMatching(/^15 entries/) }),
    ]);
  });

  it('ignores <foo> in a urlset with one warning and yields the sm-alltags URLs', async () => {
    const expected = JSON.parse(readFixture('extensions/sm-alltags.expected.json').toString('utf8')) as {
      urls: { url: string }[];
    };
    const result = await collectFixture('malformed/sm-bad-tag-sitemap.xml');
    expect(locs(result)).toEqual(expected.urls.map((url) => url.url));
    expect(result.stats.warnings).toEqual([
      expect.objectContaining({ code: 'unknown_element', message: 'ignored unknown element <foo>', line: 3 }),
    ]);
  });

  it('reads the schema-invalid but well-formed file (2 URLs with videos)', async () => {
    const result = await collectFixture('malformed/sm-cli-urls.json.schema-invalid.xml');
    expect(result.entries).toHaveLength(2);
    expect((result.entries as SitemapUrlEntry[]).map((entry) => entry.videos)).toEqual([1, 1]);
  });

  it('reads the squirrelscan audit fixture as declared; validation is left to lint rules', async () => {
    const result = await collectFixture('malformed/squirrelscan-bad-sitemap-audit-rules.xml');
    const entries = result.entries as SitemapUrlEntry[];
    expect(entries).toHaveLength(7);
    expect(entries[0]).toMatchObject({ loc: '/relative-path', position: 2 });
    expect(entries.find((entry) => entry.lastmodRaw === 'January 15, 2024')?.lastmod).toBeNull();
    expect(entries.find((entry) => entry.lastmodRaw === '2030-01-01')?.lastmod?.getUTCFullYear()).toBe(2030);
    expect(entries.some((entry) => entry.changefreq === 'sometimes')).toBe(true);
    expect(entries.some((entry) => entry.priority === 2.5)).toBe(true);
    expect(result.stats.warnings).toEqual([
      expect.objectContaining({
        code: 'missing_loc',
        line: 4,
        message: expect.stringMatching(/^1 entry has no <loc>/),
      }),
    ]);
  });
});
