import { describe, expect, it } from 'vitest';
import { clientAddress, lastForwarded, parseTrustProxy, trustsPeer } from './proxy-trust';

describe('parseTrustProxy', () => {
  it('trusts nothing when unset, empty, false or 0', () => {
    for (const value of [undefined, '', ' ', 'false', 'FALSE', '0'])
      expect(parseTrustProxy(value)).toEqual({ kind: 'none' });
  });

  it('reads a hop count', () => {
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 });
  });

  it('refuses true (it would believe any client), a huge count and what is not an address', () => {
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY=1/);
    expect(() => parseTrustProxy('1000')).toThrow(/more than 32/);
    expect(() => parseTrustProxy('10.0.0.1, nginx')).toThrow(/"nginx" is not an IP address/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/"10.0.0.0\/33"/);
  });
});

describe('clientAddress', () => {
  const xff = '192.0.2.1, 198.51.100.2, 10.0.0.3';

  it('is the peer when nothing is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(parseTrustProxy(undefined), '127.0.0.1', xff)).toBe('127.0.0.1');
  });

  it('counts N hops from the right, stopping at the left-most entry', () => {
    expect(clientAddress(parseTrustProxy('1'), '10.0.0.9', xff)).toBe('10.0.0.3');
    expect(clientAddress(parseTrustProxy('2'), '10.0.0.9', xff)).toBe('198.51.100.2');
    expect(clientAddress(parseTrustProxy('9'), '10.0.0.9', xff)).toBe('192.0.2.1');
    expect(clientAddress(parseTrustProxy('1'), '10.0.0.9', null)).toBe('10.0.0.9');
  });

  it('skips hops inside the trusted ranges and keywords', () => {
    const trust = parseTrustProxy('loopback, 10.0.0.0/8');
    expect(clientAddress(trust, '::ffff:127.0.0.1', xff)).toBe('198.51.100.2');
    expect(clientAddress(trust, '203.0.113.5', xff)).toBe('203.0.113.5');
    expect(clientAddress(trust, '127.0.0.1', '10.1.1.1')).toBe('10.1.1.1');
  });

  it('writes IPv4-mapped peers as IPv4, so one client has one key', () => {
    expect(clientAddress(parseTrustProxy(undefined), '::ffff:192.0.2.7', null)).toBe('192.0.2.7');
  });
});

describe('trustsPeer and lastForwarded', () => {
  it('trusts a peer only by a hop count or a matching range', () => {
    expect(trustsPeer(parseTrustProxy(undefined), '127.0.0.1')).toBe(false);
    expect(trustsPeer(parseTrustProxy('1'), '203.0.113.5')).toBe(true);
    expect(trustsPeer(parseTrustProxy('private'), '192.168.1.4')).toBe(true);
    expect(trustsPeer(parseTrustProxy('private'), '203.0.113.5')).toBe(false);
  });

  it('reads the value the nearest proxy appended', () => {
    expect(lastForwarded('evil.example, audit.example.com')).toBe('audit.example.com');
    expect(lastForwarded(null)).toBeNull();
    expect(lastForwarded(' ')).toBeNull();
  });
});
