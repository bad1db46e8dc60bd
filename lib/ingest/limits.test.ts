import { afterEach, describe, expect, it } from 'vitest';
import { walkLimits } from './limits';

const NAMES = [
  'SITEMAP_MAX_LOC_CHARS',
  'SITEMAP_FETCH_CONCURRENCY',
  'SITEMAP_FETCH_PER_HOST',
  'SITEMAP_AUDIT_FETCH_MS',
  'SITEMAP_AUDIT_FETCH_BYTES',
];

afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe('walkLimits', () => {
  it('has the documented defaults', () => {
    expect(walkLimits()).toMatchObject({
      maxLocChars: 2048,
      maxXmlDepth: 100,
      fetchConcurrency: 8,
      fetchPerHost: 4,
      auditFetchMs: 900_000,
      auditFetchBytes: 2 * 1024 ** 3,
    });
  });

  it('reads the environment', () => {
    process.env.SITEMAP_MAX_LOC_CHARS = '65536';
    process.env.SITEMAP_FETCH_PER_HOST = '2';
    expect(walkLimits()).toMatchObject({ maxLocChars: 65_536, fetchPerHost: 2 });
  });

  it.each([
    ['SITEMAP_MAX_LOC_CHARS', '65537', /SITEMAP_MAX_LOC_CHARS must be between 16 and 65,536, got 65537/],
    ['SITEMAP_MAX_LOC_CHARS', 'lots', /SITEMAP_MAX_LOC_CHARS must be a non-negative number/],
    ['SITEMAP_FETCH_CONCURRENCY', '0', /SITEMAP_FETCH_CONCURRENCY must be between 1 and 64, got 0/],
    ['SITEMAP_AUDIT_FETCH_MS', '0', /SITEMAP_AUDIT_FETCH_MS must be between 1 and/],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    process.env[name] = value;
    expect(() => walkLimits()).toThrow(message);
  });
});
