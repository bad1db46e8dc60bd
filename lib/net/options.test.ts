import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, parsePortList, resolveOptions } from './options';

describe('resolveOptions', () => {
  it('applies the documented defaults with an empty environment', () => {
    const opts = resolveOptions({}, {});
    expect(opts).toMatchObject({
      timeoutMs: 30_000,
      idleTimeoutMs: 10_000,
      maxRedirects: 5,
      retries: 3,
      retryBaseMs: 500,
      maxRetryAfterMs: 60_000,
      userAgent: DEFAULT_USER_AGENT,
      allowPrivateNetwork: false,
      allowedPorts: [80, 443],
      method: 'GET',
    });
  });

  it('reads USER_AGENT, ALLOW_PRIVATE_NETWORK and ALLOWED_PORTS', () => {
    const env = { USER_AGENT: 'Acme/1', ALLOW_PRIVATE_NETWORK: 'true', ALLOWED_PORTS: '8080, 8443' };
    expect(resolveOptions({}, env)).toMatchObject({
      userAgent: 'Acme/1',
      allowPrivateNetwork: true,
      allowedPorts: [80, 443, 8080, 8443],
    });
    expect(resolveOptions({ allowPrivateNetwork: false }, env).allowPrivateNetwork).toBe(false);
    expect(
      resolveOptions({ allowPrivateNetwork: false }, { ALLOW_PRIVATE_NETWORK: '1' }).allowPrivateNetwork,
    ).toBe(false);
  });

  it('keeps a configured port list whether private networks are allowed or not', () => {
    const ports = (options: Parameters<typeof resolveOptions>[0], env: Record<string, string>) =>
      resolveOptions(options, env).allowedPorts;
    // Private allowed, no list: any port (null), as intranet sites and loopback tests need.
    expect(ports({}, { ALLOW_PRIVATE_NETWORK: 'true' })).toBeNull();
    expect(ports({}, { ALLOW_PRIVATE_NETWORK: 'true', ALLOWED_PORTS: ' ' })).toBeNull();
    expect(ports({}, { ALLOW_PRIVATE_NETWORK: 'true', ALLOWED_PORTS: '8080' })).toEqual([80, 443, 8080]);
    expect(ports({}, { ALLOW_PRIVATE_NETWORK: 'false', ALLOWED_PORTS: '443,8080' })).toEqual([80, 443, 8080]);
    expect(ports({ allowPrivateNetwork: true }, { ALLOWED_PORTS: '8080' })).toEqual([80, 443, 8080]);
    expect(ports({ allowPrivateNetwork: true, allowedPorts: [8443] }, {})).toEqual([8443]);
    expect(ports({}, {})).toEqual([80, 443]);
    expect(() => ports({}, { ALLOW_PRIVATE_NETWORK: 'true', ALLOWED_PORTS: '22;5432' })).toThrow(
      /ALLOWED_PORTS/,
    );
  });

  it('lower-cases extra header names so they override defaults reliably', () => {
    expect(resolveOptions({ headers: { 'If-None-Match': '"abc"' } }, {}).headers).toEqual({
      'if-none-match': '"abc"',
    });
  });

  it('rejects nonsense option values', () => {
    expect(() => resolveOptions({ timeoutMs: 0 }, {})).toThrow(RangeError);
    expect(() => resolveOptions({ retries: -1 }, {})).toThrow(RangeError);
    expect(() => resolveOptions({ maxRedirects: 1.5 }, {})).toThrow(RangeError);
  });
});

describe('parsePortList', () => {
  it('parses a comma list and tolerates blanks around entries', () => {
    expect(parsePortList(' 8080 ,9000')).toEqual([8080, 9000]);
    expect(parsePortList('')).toEqual([]);
    expect(parsePortList(undefined)).toEqual([]);
  });

  it.each(['80,abc', '0', '70000', '80;443', '8080,'])('throws on %j', (value) => {
    expect(() => parsePortList(value)).toThrow(/ALLOWED_PORTS/);
  });
});
