import { describe, expect, it } from 'vitest';
import {
  assertPublicUrl,
  assertUrlShape,
  displayUrl,
  isBlockedAddress,
  isNeverContactedAddress,
} from './address-guard';
import { rejectionOf } from './test-server';
import { NetError, type ResolvedAddress } from './types';

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback /8'],
    ['::1', 'IPv6 loopback'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12 start'],
    ['172.31.255.254', 'private 172.16/12 end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.10.10', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'CGNAT start'],
    ['100.127.255.254', 'CGNAT end'],
    ['100.100.100.200', 'Alibaba metadata (CGNAT)'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast SSDP'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '0.0.0.0/8'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['febf::1', 'IPv6 link-local end of /10'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12:3456::1', 'unique-local fd'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
    ['::127.0.0.1', 'deprecated IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['not-an-ip', 'garbage fails closed'],
    ['', 'empty fails closed'],
  ])('blocks %s (%s)', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    ['93.184.216.34', 'public IPv4'],
    ['8.8.8.8', 'public resolver'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['100.128.0.1', 'just above CGNAT'],
    ['169.253.255.255', 'just below link-local'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['[2606:4700:4700::1111]', 'bracketed IPv6'],
    ['::ffff:93.184.216.34', 'IPv4-mapped public'],
    ['64:ff9b::5db8:d822', 'NAT64 of public'],
    ['2002:5db8:d822::1', '6to4 of public'],
  ])('allows %s (%s)', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});

const strict = { allowPrivateNetwork: false, allowedPorts: [80, 443] };
const fixed =
  (...addresses: string[]) =>
  async (): Promise<ResolvedAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(NetError);
  return (err as NetError).code;
}

describe('assertUrlShape', () => {
  it.each([
    ['ftp://example.com/', 'bad_scheme'],
    ['file:///etc/passwd', 'bad_scheme'],
    ['javascript:alert(1)', 'bad_scheme'],
    ['http://user:secret@example.com/', 'credentials_in_url'],
    ['http://user@example.com/', 'credentials_in_url'],
    ['http://example.com:8080/', 'port_not_allowed'],
    ['https://example.com:80/', undefined],
    ['https://example.com/', undefined],
  ])('%s → %s', (text, code) => {
    const run = () => assertUrlShape(new URL(text), strict);
    if (code === undefined) expect(run).not.toThrow();
    else expect(run).toThrow(expect.objectContaining({ code }));
  });

  it('never repeats the password in the message', () => {
    expect(() => assertUrlShape(new URL('http://u:hunter2@example.com/'), strict)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('allows configured ports, and any port only when no list applies (null)', () => {
    const url = new URL('http://example.com:8080/');
    expect(() => assertUrlShape(url, { ...strict, allowedPorts: [8080] })).not.toThrow();
    expect(() => assertUrlShape(url, { allowPrivateNetwork: true, allowedPorts: null })).not.toThrow();
    expect(() => assertUrlShape(url, { ...strict, allowPrivateNetwork: true })).toThrow(
      expect.objectContaining({ code: 'port_not_allowed' }),
    );
  });
});

describe('assertPublicUrl', () => {
  it('returns the vetted answers when all are public', async () => {
    const answers = await assertPublicUrl(new URL('https://public.test/'), {
      ...strict,
      resolve: fixed('93.184.216.34', '2606:4700:4700::1111'),
    });
    expect(answers.map((a) => a.address)).toEqual(['93.184.216.34', '2606:4700:4700::1111']);
  });

  it('refuses when ANY answer is private (rebinding-style mixed answers)', async () => {
    const url = new URL('https://mixed.test/');
    expect(
      await codeOf(assertPublicUrl(url, { ...strict, resolve: fixed('93.184.216.34', '10.0.0.7') })),
    ).toBe('blocked_address');
  });

  it('checks IP-literal hosts without asking DNS', async () => {
    const resolve = async () => {
      throw new Error('DNS must not be asked');
    };
    expect(await codeOf(assertPublicUrl(new URL('http://[::1]/'), { ...strict, resolve }))).toBe(
      'blocked_address',
    );
    expect(await codeOf(assertPublicUrl(new URL('http://0x7f.1/'), { ...strict, resolve }))).toBe(
      'blocked_address',
    );
    const answers = await assertPublicUrl(new URL('http://93.184.216.34/'), { ...strict, resolve });
    expect(answers).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('keeps the private address out of the message', async () => {
    const err = await rejectionOf(
      assertPublicUrl(new URL('http://intranet.test/'), { ...strict, resolve: fixed('10.9.8.7') }),
    );
    expect((err as NetError).message).toContain('http://intranet.test/');
    expect((err as NetError).message).not.toContain('10.9.8.7');
  });

  it('lets private answers through when allowPrivateNetwork is set', async () => {
    const answers = await assertPublicUrl(new URL('http://intranet.test:8443/'), {
      allowPrivateNetwork: true,
      allowedPorts: null, // no ALLOWED_PORTS configured
      resolve: fixed('10.9.8.7'),
    });
    expect(answers).toHaveLength(1);
  });

  it('reports resolution failures and empty answers as dns_failed', async () => {
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await codeOf(assertPublicUrl(new URL('http://nx.test/'), { ...strict, resolve: failing }))).toBe(
      'dns_failed',
    );
    expect(
      await codeOf(assertPublicUrl(new URL('http://empty.test/'), { ...strict, resolve: fixed() })),
    ).toBe('dns_failed');
  });

  it('uses the real resolver by default: localhost is loopback', async () => {
    expect(await codeOf(assertPublicUrl(new URL('http://localhost/'), strict))).toBe('blocked_address');
  });
});

describe('displayUrl', () => {
  it('drops credentials and fragment', () => {
    expect(displayUrl(new URL('https://a:b@example.com/x?y=1#frag'))).toBe('https://example.com/x?y=1');
  });
});

describe('addresses refused even with private networks allowed', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '240.0.0.1',
    '224.0.0.1',
    '239.255.255.250',
    '::',
    'ff02::1',
    'ff0e::1',
    '::ffff:0.0.0.0',
    '::ffff:224.0.0.251',
    '[::]',
  ])('%s is never contacted', (ip) => {
    expect(isNeverContactedAddress(ip)).toBe(true);
  });

  it.each(['10.0.0.5', '127.0.0.1', '192.168.1.255', '::1', 'fd12::1', '93.184.216.34', '2606:2800::1'])(
    '%s is left to the private-network rule',
    (ip) => {
      expect(isNeverContactedAddress(ip)).toBe(false);
    },
  );

  it.each([
    'http://0.0.0.0/',
    'http://255.255.255.255/',
    'http://224.0.0.1/',
    'http://[ff02::1]/',
    'http://[::]/',
  ])('assertPublicUrl refuses %s with ALLOW_PRIVATE_NETWORK lifted', async (url) => {
    const err = await rejectionOf(
      assertPublicUrl(new URL(url), { allowPrivateNetwork: true, allowedPorts: null }),
    );
    expect(err).toMatchObject({
      code: 'blocked_address',
      message: expect.stringContaining('not even with ALLOW_PRIVATE_NETWORK=true'),
    });
  });
});
