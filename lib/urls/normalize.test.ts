import { describe, expect, it } from 'vitest';
import { looseKey, normalizeUrl, urlKeys } from './normalize';

describe('normalizeUrl exact', () => {
  it.each([
    ['HTTP://EXAMPLE.COM', 'http://example.com/'],
    ['https://Example.COM/Path/Case/', 'https://example.com/Path/Case/'],
    ['https://example.com/a/', 'https://example.com/a/'],
    ['https://example.com/a', 'https://example.com/a'],
    ['https://example.com:443/x', 'https://example.com/x'],
    ['http://example.com:80/x', 'http://example.com/x'],
    ['http://example.com:443/x', 'http://example.com:443/x'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
    ['https://example.com/x?b=2&a=1', 'https://example.com/x?b=2&a=1'],
    ['https://example.com/x?', 'https://example.com/x'],
    ['https://example.com/x?#frag', 'https://example.com/x'],
    ['https://example.com/x#frag', 'https://example.com/x'],
    ['https://example.com/x?q=1#frag', 'https://example.com/x?q=1'],
    ['https://example.com/x#', 'https://example.com/x'],
    ['https://Bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://XN--BCHER-KVA.example/a', 'https://xn--bcher-kva.example/a'],
    ['https://例え.テスト/パス', 'https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9'],
    ['https://example.com/caf%C3%A9', 'https://example.com/caf%C3%A9'],
    ['https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
    ['https://example.com/café', 'https://example.com/caf%C3%A9'],
    ['https://example.com/a%2Fb', 'https://example.com/a%2Fb'],
    ['https://example.com/%7Euser', 'https://example.com/%7Euser'],
    ['https://example.com/100%', 'https://example.com/100%'],
    ['https://example.com/?q=%e2%82%ac', 'https://example.com/?q=%E2%82%AC'],
    ['https://user:Pass@example.com/', 'https://user:Pass@example.com/'],
    ['  https://example.com/x \n', 'https://example.com/x'],
    ['\uFEFFhttps://example.com/x', 'https://example.com/x'],
    ['\u00A0https://example.com/x\u00A0', 'https://example.com/x'],
    ['https://example.com/a/./b/../c', 'https://example.com/a/c'],
    ['https://example.com', 'https://example.com/'],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeUrl(raw, 'exact')).toBe(expected);
  });
});

describe('normalizeUrl lenient (the playbook rule)', () => {
  it.each([
    ['HTTP://EXAMPLE.COM', 'https://example.com/'],
    ['http://example.com/a/', 'https://example.com/a'],
    ['https://example.com/a///', 'https://example.com/a'],
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com//', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/A/B', 'https://example.com/A/B'],
    ['https://example.com/x?utm=1&a=2', 'https://example.com/x'],
    ['https://example.com/x/?q#frag', 'https://example.com/x'],
    ['https://WWW.Example.com/x', 'https://www.example.com/x'],
    ['https://example.com:8080/x/', 'https://example.com:8080/x'],
    ['http://example.com:443/x', 'https://example.com/x'],
    ['http://example.com:80/x', 'https://example.com/x'],
    ['https://Bücher.example/Straße/', 'https://xn--bcher-kva.example/Stra%C3%9Fe'],
    ['https://example.com/a%2fb/', 'https://example.com/a%2Fb'],
    ['https://user@example.com/x/', 'https://user@example.com/x'],
    ['https://example.com/x/index.html', 'https://example.com/x/index.html'],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeUrl(raw, 'lenient')).toBe(expected);
  });
});

describe('looseKey', () => {
  it.each([
    ['http://www.a.com/x/index.html', 'https://a.com/x'],
    ['https://a.com/x', 'https://a.com/x'],
    ['https://a.com/x/', 'https://a.com/x'],
    ['https://WWW.A.COM/index.htm', 'https://a.com/'],
    ['https://a.com/x/INDEX.HTML?q=1#f', 'https://a.com/x'],
    ['https://a.com/x/myindex.html', 'https://a.com/x/myindex.html'],
    ['https://a.com/index.html/x', 'https://a.com/index.html/x'],
    ['https://www2.a.com/', 'https://www2.a.com/'],
    ['https://wwwa.com/', 'https://wwwa.com/'],
    ['https://u:p@www.a.com/', 'https://u:p@a.com/'],
    ['https://a.com:8080/x/index.html', 'https://a.com:8080/x'],
  ])('%j → %j', (raw, expected) => {
    expect(looseKey(raw)).toBe(expected);
  });

  it('makes the www/index variants of one page agree', () => {
    const variants = [
      'http://www.a.com/x/index.html',
      'https://a.com/x',
      'https://a.com/x/',
      'HTTPS://WWW.A.COM/x/index.htm?ref=nav',
    ];
    expect(new Set(variants.map((v) => looseKey(v))).size).toBe(1);
  });
});

describe('not an absolute http(s) URL', () => {
  it.each([
    [''],
    ['   '],
    ['/relative/path'],
    ['relative/path'],
    ['//example.com/protocol-relative'],
    ['mailto:someone@example.com'],
    ['javascript:alert(1)'],
    ['ftp://example.com/file'],
    ['data:text/plain,hi'],
    ['http:example.com'],
    ['http:/example.com'],
    ['https://'],
    ['https://exa mple.com/'],
    ['https://[::1/'],
    ['not a url'],
  ])('%j → null', (raw) => {
    expect(normalizeUrl(raw, 'exact')).toBeNull();
    expect(normalizeUrl(raw, 'lenient')).toBeNull();
    expect(looseKey(raw)).toBeNull();
    expect(urlKeys(raw, 'exact')).toBeNull();
  });
});

describe('urlKeys', () => {
  it('returns the profile key and the loose key from one call', () => {
    expect(urlKeys('http://www.a.com/x/index.html?q=1#f', 'exact')).toEqual({
      key: 'http://www.a.com/x/index.html?q=1',
      loose: 'https://a.com/x',
    });
    expect(urlKeys('http://www.a.com/x/index.html?q=1#f', 'lenient')).toEqual({
      key: 'https://www.a.com/x/index.html',
      loose: 'https://a.com/x',
    });
  });

  it('agrees with normalizeUrl and looseKey', () => {
    const samples = [
      'HTTP://EXAMPLE.COM',
      'https://www.example.com/a/b/?x=1#y',
      'https://Bücher.example/index.html',
      'http://example.com:443/caf%c3%a9/',
    ];
    for (const raw of samples) {
      for (const profile of ['exact', 'lenient'] as const) {
        expect(urlKeys(raw, profile)).toEqual({ key: normalizeUrl(raw, profile), loose: looseKey(raw) });
      }
    }
  });
});
