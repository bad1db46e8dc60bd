import { describe, expect, it } from 'vitest';
import { CrawlScope, frontierUrl, sectionOf, trapKeys } from './scope';

describe('frontierUrl', () => {
  it('drops the fragment and keeps the rest as linked', () => {
    expect(frontierUrl('https://Example.com/a/b?x=1#top', 'exact')).toMatchObject({
      url: 'https://example.com/a/b?x=1',
      key: 'https://example.com/a/b?x=1',
      host: 'example.com',
    });
  });

  it('strips session ids from the path and the query, whatever their case', () => {
    const cases: [string, string][] = [
      ['https://h.test/cart;jsessionid=A1B2C3?item=4', 'https://h.test/cart?item=4'],
      ['https://h.test/p;JSESSIONID=x/next', 'https://h.test/p/next'],
      ['https://h.test/p?PHPSESSID=abc&page=2', 'https://h.test/p?page=2'],
      ['https://h.test/p?page=2&sid=9&SessionId=7', 'https://h.test/p?page=2'],
      ['https://h.test/p?ASPSESSIONIDQACTSRDB=KLM', 'https://h.test/p'],
      ['https://h.test/p?jsessionid=1', 'https://h.test/p'],
      ['https://h.test/p?session_id=1&cfid=2&cftoken=3&osCsid=4&zenid=5', 'https://h.test/p'],
    ];
    for (const [raw, want] of cases) expect(frontierUrl(raw, 'exact')?.url, raw).toBe(want);
  });

  it('keeps parameters that only look like session ids, byte for byte and in order', () => {
    expect(frontierUrl('https://h.test/p?side=1&b=%7E&sids=2&a', 'exact')?.url).toBe(
      'https://h.test/p?side=1&b=%7E&sids=2&a',
    );
  });

  it('keys with the audit profile: lenient forces https and drops the query and trailing slash', () => {
    const link = frontierUrl('http://h.test/blog/?utm=1', 'lenient');
    expect(link?.url).toBe('http://h.test/blog/?utm=1');
    expect(link?.key).toBe('https://h.test/blog');
  });

  it('refuses what is not an absolute http(s) URL', () => {
    for (const raw of ['mailto:a@b.c', 'javascript:void(0)', '/relative', 'ftp://h.test/x', 'not a url']) {
      expect(frontierUrl(raw, 'exact'), raw).toBeNull();
    }
  });

  it('names the host with its port, as the lanes and the scope do', () => {
    expect(frontierUrl('http://127.0.0.1:8080/x', 'exact')?.host).toBe('127.0.0.1:8080');
    expect(frontierUrl('https://h.test:443/x', 'exact')?.host).toBe('h.test');
  });
});

describe('CrawlScope', () => {
  it('matches host:port exactly and accepts hosts, host:port or URLs', () => {
    const scope = new CrawlScope(['Example.com', '127.0.0.1:8080', 'https://www.other.test/path']);
    expect(scope.has('example.com')).toBe(true);
    expect(scope.has('127.0.0.1:8080')).toBe(true);
    expect(scope.has('127.0.0.1:8081')).toBe(false);
    expect(scope.has('www.other.test')).toBe(true);
    expect(scope.has('www.example.com')).toBe(false);
    expect(scope.add('www.example.com')).toBe(true);
    expect(scope.add('www.example.com')).toBe(false);
    expect(scope.has('www.example.com')).toBe(true);
  });
});

describe('sectionOf', () => {
  it('names sections as the reconciliation SQL does', () => {
    const cases: [string, string][] = [
      ['https://h.test/blog/post', 'h.test/blog'],
      // `/blog/` is a top-level page (the SQL's own comment says so): the root section.
      ['https://h.test/blog/', 'h.test/'],
      ['https://h.test/blog/a/b', 'h.test/blog'],
      ['https://h.test/about', 'h.test/'],
      ['https://h.test/', 'h.test/'],
      ['https://h.test', 'h.test/'],
      ['https://h.test/blog?x=1', 'h.test/'],
      ['http://127.0.0.1:8080/shop/item', '127.0.0.1:8080/shop'],
      // split_part sees a slash in the query too; the names must stay what the SQL makes of them.
      ['https://h.test/a?next=/b', 'h.test/a?next='],
    ];
    for (const [key, want] of cases) expect(sectionOf(key), key).toBe(want);
  });
});

describe('trapKeys', () => {
  it('stars path segments holding digits and lists the query names sorted', () => {
    const keys = trapKeys(new URL('https://h.test/calendar/2024/05?view=month&day=3&view=x'));
    expect(keys.pattern).toBe('h.test/calendar/*/*?day&view');
    expect(keys.path).toBe('h.test/calendar/2024/05');
    expect(keys.query).toBe('view=month&day=3&view=x');
  });

  it('gives every month of a calendar one pattern, and different slugs their own', () => {
    const a = trapKeys(new URL('https://h.test/events/2024-01/'));
    const b = trapKeys(new URL('https://h.test/events/2031-12/'));
    expect(a.pattern).toBe(b.pattern);
    expect(trapKeys(new URL('https://h.test/blog/hello')).pattern).not.toBe(
      trapKeys(new URL('https://h.test/blog/world')).pattern,
    );
    expect(trapKeys(new URL('http://h.test:81/p/1')).pattern).toBe('h.test:81/p/*');
    expect(trapKeys(new URL('https://h.test/p')).query).toBe('');
  });
});
