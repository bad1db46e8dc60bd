import { describe, expect, it } from 'vitest';
import { hostOf, isSiteHost } from './import-vet';

describe("the audit's site", () => {
  it.each([
    ['www.example.com', ['www.example.com'], true],
    ['example.com', ['www.example.com'], true],
    ['www.example.com', ['example.com'], true],
    ['api.example.com', ['www.example.com'], true],
    ['admin.example.com', ['example.com'], true],
    ['example.org', ['example.com'], false],
    ['notexample.com', ['example.com'], false],
    ['www.blog.example.com', ['blog.example.com'], true],
    ['www.example.com', ['blog.example.com'], false],
    ['example.com', [], false],
  ])('%s is on %j: %s', (host, site, expected) => {
    expect(isSiteHost(host, site)).toBe(expected);
  });

  it('reads the host of http(s) URLs only, lower case, without a port', () => {
    expect(hostOf('https://WWW.Example.com:8443/a')).toBe('www.example.com');
    expect(hostOf('ftp://example.com/a')).toBeNull();
    expect(hostOf('not a url')).toBeNull();
  });
});
