import { describe, expect, it } from 'vitest';
import { decodeHead, parseCsvHeader, suggestColumnMap } from './csv-header';

describe('CSV header sniffing', () => {
  it('decodes UTF-8 and UTF-16 files with a byte-order mark', () => {
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('"Address","Status Code"')]);
    expect(decodeHead(utf8)).toBe('"Address","Status Code"');
    const text = '"URL"\t"HTTP status code"';
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i += 1) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(decodeHead(utf16)).toBe(text);
  });

  it('reads quoted, tab-separated and preamble-prefixed headers', () => {
    expect(
      parseCsvHeader('"Address","Content Type","Status Code"\n"https://a.test/","text/html","200"'),
    ).toEqual(['Address', 'Content Type', 'Status Code']);
    expect(parseCsvHeader('URL\tTitle\t"Depth"\n')).toEqual(['URL', 'Title', 'Depth']);
    expect(parseCsvHeader('"All Inlinks"\n"Type","Source","Destination"\n')).toEqual([
      'Type',
      'Source',
      'Destination',
    ]);
    expect(parseCsvHeader('"a, b";c;d')).toEqual(['a, b', 'c', 'd']);
    expect(parseCsvHeader('"Say ""hi""",x')).toEqual(['Say "hi"', 'x']);
    expect(parseCsvHeader('just one line of prose')).toEqual([]);
  });

  it('suggests a column map from common crawler header names', () => {
    expect(
      suggestColumnMap([
        'Address',
        'Content Type',
        'Status Code',
        'Indexability',
        'Canonical Link Element 1',
        'Crawl Depth',
        'Redirect URL',
        'Crawl Timestamp',
      ]),
    ).toEqual({
      url: 'Address',
      status: 'Status Code',
      canonical: 'Canonical Link Element 1',
      indexable: 'Indexability',
      crawledAt: 'Crawl Timestamp',
      depth: 'Crawl Depth',
      redirectUrl: 'Redirect URL',
      contentType: 'Content Type',
    });
    expect(suggestColumnMap(['URL', 'HTTP status code', 'Title'])).toEqual({
      url: 'URL',
      status: 'HTTP status code',
    });
    expect(suggestColumnMap(['Title', 'Meta Description 1'])).toEqual({});
    expect(suggestColumnMap(['Title', 'Unique Inlinks'])).toEqual({ inlinks: 'Unique Inlinks' });
  });
});
