// Cloud metadata services are refused even with the private-network guard lifted: by address (every
// IPv4-in-IPv6 form too), by name before DNS, by DNS answer, and on a redirect hop, before any socket.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertPublicUrl, isBlockedAddress, isMetadataAddress, isMetadataHost } from './address-guard';
import { safeFetch } from './safe-fetch';
import { rejectionOf, startTestServer, type TestServer } from './test-server';
import { NetError, type ResolvedAddress } from './types';

const lifted = { allowPrivateNetwork: true, allowedPorts: [80, 443] };

const METADATA = [
  ['169.254.169.254', 'AWS/GCP/Azure/OCI IMDS'],
  ['169.254.170.2', 'ECS task metadata'],
  ['169.254.170.23', 'EKS pod identity'],
  ['169.254.0.23', 'Tencent'],
  ['169.254.1.1', 'any IPv4 link-local'],
  ['100.100.100.200', 'Alibaba'],
  ['168.63.129.16', 'Azure WireServer'],
  ['fd00:ec2::254', 'AWS IPv6 IMDS'],
  ['fd00:ec2::23', 'AWS IPv6 EKS pod identity'],
  ['FD00:EC2:0:0:0:0:0:254', 'AWS IPv6, long upper-case form'],
  ['[fd00:ec2::254]', 'bracketed'],
  ['::ffff:169.254.169.254', 'IPv4-mapped'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped, hex'],
  ['0:0:0:0:0:ffff:a9fe:aa02', 'IPv4-mapped ECS, long form'],
  ['::ffff:100.100.100.200', 'IPv4-mapped Alibaba'],
  ['::169.254.169.254', 'IPv4-compatible'],
  ['64:ff9b::a9fe:a9fe', 'NAT64'],
  ['2002:a9fe:a9fe::1', '6to4'],
  ['::ffff:0:a9fe:a9fe', 'SIIT (rfc6145)'],
] as const;

describe('isMetadataAddress', () => {
  it.each(METADATA)('%s (%s) is metadata, and blocked', (ip) => {
    expect(isMetadataAddress(ip)).toBe(true);
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    ['10.0.0.1', 'private, but an intranet may use it'],
    ['127.0.0.1', 'loopback'],
    ['100.100.100.201', 'next to Alibaba'],
    ['169.253.255.255', 'just below link-local'],
    ['169.255.0.1', 'just above link-local'],
    ['fd00:ec3::254', 'other ULA'],
    ['93.184.216.34', 'public'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['not-an-ip', 'not an address'],
  ])('%s (%s) is not metadata', (ip) => {
    expect(isMetadataAddress(ip)).toBe(false);
  });

  it('names metadata hosts whatever their case and trailing dot', () => {
    expect(isMetadataHost('metadata.google.internal')).toBe(true);
    expect(isMetadataHost('METADATA.Google.Internal.')).toBe(true);
    expect(isMetadataHost('metadata')).toBe(true);
    expect(isMetadataHost('instance-data.ec2.internal')).toBe(true);
    expect(isMetadataHost('metadata.example.com')).toBe(false);
  });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(NetError);
  return (err as NetError).code;
}

const answers =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<ResolvedAddress[]> =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('assertPublicUrl with ALLOW_PRIVATE_NETWORK=true', () => {
  it.each(METADATA)('refuses the IP literal %s (%s)', async (ip) => {
    const host = ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip;
    expect(await codeOf(assertPublicUrl(new URL(`http://${host}/latest/meta-data/`), lifted))).toBe(
      'blocked_address',
    );
  });

  it('refuses encoded IPv4 literals the URL parser turns into the metadata address', async () => {
    for (const host of ['0xa9fea9fe', '2852039166', '169.254.43518', '0251.0376.0251.0376']) {
      expect(await codeOf(assertPublicUrl(new URL(`http://${host}/`), lifted))).toBe('blocked_address');
    }
  });

  it('refuses a name resolving to metadata, and a metadata name before asking DNS', async () => {
    const resolve = answers({ 'meta.intranet.test': ['10.0.0.5', '169.254.169.254'] });
    expect(await codeOf(assertPublicUrl(new URL('http://meta.intranet.test/'), { ...lifted, resolve }))).toBe(
      'blocked_address',
    );
    const never = async () => {
      throw new Error('DNS must not be asked');
    };
    const err = await rejectionOf(
      assertPublicUrl(new URL('http://metadata.google.internal/computeMetadata/v1/'), {
        ...lifted,
        resolve: never,
      }),
    );
    expect((err as NetError).code).toBe('blocked_address');
    expect((err as NetError).message).toContain('cloud metadata');
  });

  it('still lets ordinary private answers through', async () => {
    const resolve = answers({ 'wiki.intranet.test': ['10.0.0.5'] });
    const vetted = await assertPublicUrl(new URL('http://wiki.intranet.test/'), { ...lifted, resolve });
    expect(vetted.map((a) => a.address)).toEqual(['10.0.0.5']);
  });
});

describe('safeFetch with the guard lifted', () => {
  let entry: TestServer;
  beforeEach(async () => {
    entry = await startTestServer((req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to === null) res.end('entry');
      else res.writeHead(302, { location: to }).end();
    });
  });
  afterEach(() => entry.close());

  it.each([
    ['a metadata IP literal', 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv4-mapped metadata literal', 'http://[::ffff:a9fe:a9fe]/'],
    ['metadata.google.internal resolving to 169.254.169.254', 'http://metadata.google.internal/'],
    ['a name whose DNS answer is the ECS endpoint', 'http://ecs.intranet.test/v2/credentials'],
  ])('refuses a redirect hop to %s before connecting', async (_name, to) => {
    const dialled: ResolvedAddress[] = [];
    const testHooks = {
      resolve: answers({
        'metadata.google.internal': ['169.254.169.254'],
        'ecs.intranet.test': ['169.254.170.2'],
      }),
      // Were a metadata hop let through, its socket would reach the entry server instead (a second
      // request there), never the real address.
      dial: (checked: ResolvedAddress): ResolvedAddress => {
        dialled.push(checked);
        return { address: '127.0.0.1', family: 4 };
      },
    };
    const start = `http://127.0.0.1:${entry.port}/?to=${encodeURIComponent(to)}`;
    const err = await rejectionOf(
      safeFetch(start, { timeoutMs: 2000, retries: 0, allowPrivateNetwork: true, testHooks }),
    );
    expect((err as NetError).code).toBe('blocked_address');
    // Only the first hop (the loopback entry, allowed by the lifted guard) reached a socket.
    expect(entry.requests).toHaveLength(1);
    expect(dialled).toEqual([]);
  });

  it('refuses a first URL whose DNS answer is metadata', async () => {
    const testHooks = { resolve: answers({ 'metadata.google.internal': ['169.254.169.254'] }) };
    expect(
      await codeOf(
        safeFetch('http://metadata.google.internal/', {
          timeoutMs: 2000,
          retries: 0,
          allowPrivateNetwork: true,
          testHooks,
        }),
      ),
    ).toBe('blocked_address');
  });
});
