import { describe, expect, it } from 'vitest';
import { siteHostOf } from './site-host';

describe('siteHostOf', () => {
  it('is the lower-case host, with a port only when it is not the default', () => {
    expect(siteHostOf('https://WWW.Example.com/sitemap.xml')).toBe('www.example.com');
    expect(siteHostOf('https://example.com:443/')).toBe('example.com');
    expect(siteHostOf('http://127.0.0.1:3218/robots.txt')).toBe('127.0.0.1:3218');
  });

  it('is null for what is not an absolute http(s) URL', () => {
    expect(siteHostOf('/relative/path')).toBeNull();
    expect(siteHostOf('ftp://example.com/a')).toBeNull();
    expect(siteHostOf('')).toBeNull();
    expect(siteHostOf(null)).toBeNull();
  });
});
