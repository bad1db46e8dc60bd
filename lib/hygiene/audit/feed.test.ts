// What the lint knows from an audit's stored rows: which of the fact rules it can judge, and the robots.txt
// rules of every robots.txt the audit read, each applied to its own origin.
import { describe, expect, it } from 'vitest';
import { notJudged, type StoredFile, storedRobots } from './feed';

let nextId = 1;
function row(over: Partial<StoredFile>): StoredFile {
  return {
    id: nextId++,
    parentId: null,
    url: null,
    uploadName: null,
    kind: 'urlset',
    status: 'ok',
    finalUrl: null,
    uncompressedBytes: 10,
    compressedBytes: 10,
    entries: 1,
    errorMessage: null,
    errorLine: null,
    warnings: [],
    httpStatus: 200,
    contentType: 'application/xml',
    contentEncoding: null,
    gzipped: false,
    hasBom: false,
    robotsTxt: null,
    indexLoc: null,
    ...over,
  };
}
const robots = (url: string, robotsTxt: string | null, httpStatus = 200) =>
  row({ url, kind: 'robots', robotsTxt, httpStatus, status: httpStatus === 404 ? 'skipped' : 'ok' });

describe('notJudged', () => {
  it('is empty for an audit that read a robots.txt and stored every file fact', () => {
    expect(
      notJudged([robots('https://a.example/robots.txt', ''), row({ url: 'https://a.example/s.xml' })]),
    ).toEqual([]);
  });

  it('counts a robots.txt that answered 404 as read (nothing disallowed)', () => {
    expect(notJudged([robots('https://a.example/robots.txt', null, 404), row({})])).toEqual([]);
  });

  it('lists robots_disallowed for uploads (no robots.txt read)', () => {
    expect(notJudged([row({ uploadName: 'a.xml', contentType: null })])).toEqual(['robots_disallowed']);
  });

  it('lists the serving rules when a file read before the facts were stored has none (NULL)', () => {
    expect(
      notJudged([robots('https://a.example/robots.txt', ''), row({ gzipped: null, hasBom: null })]),
    ).toEqual(['content_type_not_xml', 'gzip_mismatch', 'bom']);
  });

  it('ignores files that were never read (failed before a byte: no kind)', () => {
    expect(
      notJudged([
        robots('https://a.example/robots.txt', ''),
        row({ kind: null, status: 'failed', gzipped: null }),
      ]),
    ).toEqual([]);
  });
});

describe('storedRobots', () => {
  it('is null when no robots.txt body is stored', () => {
    expect(storedRobots([row({}), robots('https://a.example/robots.txt', null, 404)])).toBeNull();
  });

  it('applies each robots.txt to URLs of its own origin only', () => {
    const rules = storedRobots([
      robots('https://a.example/robots.txt', 'User-agent: *\nDisallow: /private/'),
      robots('https://b.example/robots.txt', 'User-agent: Googlebot\nDisallow: /'),
    ]);
    expect(rules?.isAllowed('https://a.example/private/x', 'Googlebot')).toBe(false);
    expect(rules?.isAllowed('https://a.example/open', 'Googlebot')).toBe(true);
    expect(rules?.isAllowed('https://b.example/open', 'Googlebot')).toBe(false);
    expect(rules?.isAllowed('https://c.example/private/x', 'Googlebot')).toBeUndefined();
  });
});
