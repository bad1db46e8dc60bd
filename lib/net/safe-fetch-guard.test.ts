// The SSRF guard as safeFetch applies it: on the first URL and on every redirect hop, before connecting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { safeFetch } from './safe-fetch';
import { readAll, rejectionOf, startTestServer, type TestServer } from './test-server';
import { NetError, type ResolvedAddress, type SafeFetchOptions } from './types';

const PUBLIC_IP = '93.184.216.34';
const quick: SafeFetchOptions = { timeoutMs: 2000, retries: 0, allowPrivateNetwork: false };

let target: TestServer;
let entry: TestServer;

beforeEach(async () => {
  target = await startTestServer((_req, res) => res.end('secret'));
  // Redirects to ?to=…, or answers 200 when there is none.
  entry = await startTestServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to === null) res.end('entry');
    else res.writeHead(302, { location: to }).end();
  });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([target.close(), entry.close()]);
});

async function netError(promise: Promise<unknown>): Promise<NetError> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

/**
 * Hooks that make `public.test` resolve to a public address (so the guard passes), while the socket
 * that would dial that address is pointed at the loopback entry server instead: nothing ever leaves
 * 127.0.0.1, yet the guard sees exactly what it would see on the internet.
 */
function publicHostHooks(extra: Record<string, string[]> = {}) {
  const dialled: ResolvedAddress[] = [];
  const table: Record<string, string[]> = { 'public.test': [PUBLIC_IP], ...extra };
  return {
    dialled,
    testHooks: {
      resolve: async (host: string) =>
        (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const),
      dial: (checked: ResolvedAddress): ResolvedAddress => {
        dialled.push(checked);
        return { address: '127.0.0.1', family: 4 };
      },
    },
  };
}

describe('safeFetch private-network guard', () => {
  it('refuses a 127.0.0.1 server by default, without connecting', async () => {
    const err = await netError(safeFetch(`${target.origin}/`, { ...quick, allowedPorts: [target.port] }));
    expect(err.code).toBe('blocked_address');
    expect(target.connectionCount()).toBe(0);
  });

  it('refuses a hostname that resolves to loopback (localhost)', async () => {
    const err = await netError(
      safeFetch(`http://localhost:${target.port}/`, { ...quick, allowedPorts: [target.port] }),
    );
    expect(err.code).toBe('blocked_address');
    expect(target.connectionCount()).toBe(0);
  });

  it('is lifted by allowPrivateNetwork, and by ALLOW_PRIVATE_NETWORK=true when the option is unset', async () => {
    const res = await safeFetch(`${target.origin}/`, { ...quick, allowPrivateNetwork: true });
    expect((await readAll(res.body)).toString()).toBe('secret');

    vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
    const viaEnv = await safeFetch(`http://localhost:${target.port}/`, { timeoutMs: 2000 });
    expect(viaEnv.status).toBe(200);
    viaEnv.body.destroy();
  });

  it('connects to the very address that was checked', async () => {
    const hooks = publicHostHooks();
    const res = await safeFetch(`http://public.test:${entry.port}/?to=/done`, {
      ...quick,
      allowedPorts: [entry.port],
      testHooks: hooks.testHooks,
    });
    expect((await readAll(res.body)).toString()).toBe('entry');
    expect(res.redirects).toEqual([{ url: `http://public.test:${entry.port}/?to=/done`, status: 302 }]);
    // One dial per hop, each to the checked public answer (which the hook then stands in for).
    expect(hooks.dialled.map((a) => a.address)).toEqual([PUBLIC_IP, PUBLIC_IP]);
  });

  it.each([
    ['an IP literal', (t: TestServer) => `${t.origin}/`],
    ['a host resolving to cloud metadata', () => 'http://metadata.test/latest/meta-data/'],
    ['a host with one private answer among public ones', () => 'http://mixed.test/'],
  ])('refuses a redirect mid-chain to %s before connecting', async (_name, to) => {
    const hooks = publicHostHooks({
      'metadata.test': ['169.254.169.254'],
      'mixed.test': [PUBLIC_IP, '10.0.0.8'],
    });
    const start = `http://public.test:${entry.port}/?to=${encodeURIComponent(to(target))}`;
    const err = await netError(
      safeFetch(start, { ...quick, allowedPorts: [80, entry.port, target.port], testHooks: hooks.testHooks }),
    );
    expect(err.code).toBe('blocked_address');
    expect(entry.requests).toHaveLength(1);
    // Only the first, public hop was ever dialled; the refused hop never reached a socket.
    expect(hooks.dialled).toHaveLength(1);
    expect(target.connectionCount()).toBe(0);
  });

  it('re-checks scheme, port and credentials on every hop', async () => {
    const hooks = publicHostHooks();
    const cases: [string, NetError['code']][] = [
      ['file:///etc/passwd', 'bad_scheme'],
      ['http://public.test:6379/', 'port_not_allowed'],
      ['http://admin:pw@public.test/', 'credentials_in_url'],
    ];
    for (const [to, code] of cases) {
      const start = `http://public.test:${entry.port}/?to=${encodeURIComponent(to)}`;
      const err = await netError(
        safeFetch(start, { ...quick, allowedPorts: [80, entry.port], testHooks: hooks.testHooks }),
      );
      expect(err.code).toBe(code);
      expect(err.message).not.toContain(':pw@');
    }
    expect(entry.requests).toHaveLength(cases.length);
  });
});

describe('safeFetch URL checks', () => {
  it.each([
    ['not a url', 'bad_url'],
    ['ftp://example.com/sitemap.xml', 'bad_scheme'],
    ['http://user:hunter2@example.com/', 'credentials_in_url'],
    ['http://example.com:8080/', 'port_not_allowed'],
  ])('%s → %s', async (url, code) => {
    const err = await netError(safeFetch(url, quick));
    expect(err.code).toBe(code);
    expect(err.message).not.toContain('hunter2');
  });

  it('checks credentials even with the guard lifted', async () => {
    const url = `http://user:pw@127.0.0.1:${target.port}/`;
    expect((await netError(safeFetch(url, { ...quick, allowPrivateNetwork: true }))).code).toBe(
      'credentials_in_url',
    );
    expect(target.connectionCount()).toBe(0);
  });

  it('allows extra ports from options or ALLOWED_PORTS; any port once lifted with no list', async () => {
    const url = `${target.origin}/`;
    // Past the port check, the loopback address is what stops it.
    expect((await netError(safeFetch(url, quick))).code).toBe('port_not_allowed');
    expect((await netError(safeFetch(url, { ...quick, allowedPorts: [target.port] }))).code).toBe(
      'blocked_address',
    );
    vi.stubEnv('ALLOWED_PORTS', String(target.port));
    expect((await netError(safeFetch(url, quick))).code).toBe('blocked_address');
    vi.stubEnv('ALLOWED_PORTS', '');
    // No list configured: intranet sites on any port, tests on random loopback ports.
    vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
    for (const server of [target, entry]) {
      const res = await safeFetch(`${server.origin}/`, { timeoutMs: 2000, retries: 0 });
      expect(res.status).toBe(200);
      res.body.destroy();
    }
  });
});

describe('ALLOW_PRIVATE_NETWORK lifts the address rule only', () => {
  const lifted: SafeFetchOptions = { timeoutMs: 2000, retries: 0 };
  beforeEach(() => vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true'));

  it('keeps a configured ALLOWED_PORTS: another port is refused without connecting, the listed one reached', async () => {
    vi.stubEnv('ALLOWED_PORTS', String(entry.port));
    const err = await netError(safeFetch(`${target.origin}/`, lifted));
    expect(err.code).toBe('port_not_allowed');
    expect(err.message).toBe(
      `${target.origin}/ uses port ${target.port}; allowed ports are 80, 443, ${entry.port} (ALLOWED_PORTS applies even with ALLOW_PRIVATE_NETWORK=true)`,
    );
    expect(target.connectionCount()).toBe(0);
    const res = await safeFetch(`${entry.origin}/`, lifted);
    expect((await readAll(res.body)).toString()).toBe('entry');
  });

  it('keeps an allowedPorts option too, and checks every redirect hop against the list', async () => {
    const err = await netError(safeFetch(`${target.origin}/`, { ...lifted, allowedPorts: [entry.port] }));
    expect(err.code).toBe('port_not_allowed');
    vi.stubEnv('ALLOWED_PORTS', String(entry.port));
    const hop = `${entry.origin}/?to=${encodeURIComponent(`${target.origin}/`)}`;
    expect((await netError(safeFetch(hop, lifted))).code).toBe('port_not_allowed');
    expect(target.connectionCount()).toBe(0);
  });

  it('refuses 0.0.0.0, which Linux would connect to this host, without connecting', async () => {
    const err = await netError(safeFetch(`http://0.0.0.0:${target.port}/`, lifted));
    expect(err).toMatchObject({ code: 'blocked_address', message: expect.stringContaining('unspecified') });
    expect((await netError(safeFetch(`http://[::ffff:0.0.0.0]:${target.port}/`, lifted))).code).toBe(
      'blocked_address',
    );
    expect(target.connectionCount()).toBe(0);
  });

  it('refuses broadcast, multicast and unspecified answers of a name, before dialling', async () => {
    const hosts: Record<string, string[]> = {
      'bcast.test': ['255.255.255.255'],
      'class-e.test': ['240.0.0.9'],
      'mcast.test': ['224.0.0.251'],
      'mcast6.test': ['ff02::1'],
      'zero.test': ['0.0.0.0'],
      'zero6.test': ['::'],
      'mixed.test': ['10.0.0.5', '239.255.255.250'],
    };
    const hooks = publicHostHooks(hosts);
    for (const host of Object.keys(hosts)) {
      const err = await netError(
        safeFetch(`http://${host}:${entry.port}/`, { ...lifted, testHooks: hooks.testHooks }),
      );
      expect([host, err.code]).toEqual([host, 'blocked_address']);
    }
    expect(hooks.dialled).toEqual([]);
    expect(entry.connectionCount()).toBe(0);
  });
});
