import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_USER_AGENT } from './options';
import { safeFetch } from './safe-fetch';
import { readAll, rejectionOf, startTestServer, type TestServer } from './test-server';
import { NetError, type SafeFetchOptions } from './types';

const local: SafeFetchOptions = { allowPrivateNetwork: true, timeoutMs: 2000, retries: 0 };
const XML = `<?xml version="1.0"?><urlset>${'<url><loc>https://example.com/a</loc></url>'.repeat(200)}</urlset>`;
const ENCODED: Record<string, Buffer> = {
  gzip: gzipSync(XML),
  deflate: deflateSync(XML),
  br: brotliCompressSync(XML),
};
// 64 MiB of zeros squeezed into ~64 KB: what a decompression bomb looks like on the wire.
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const path = req.url ?? '/';
    const encoding = path.match(/^\/encoded\/(\w+)$/)?.[1];
    if (encoding) {
      res.writeHead(200, { 'content-encoding': encoding, 'content-type': 'application/xml' });
      res.end(ENCODED[encoding]);
    } else if (path === '/bomb') res.writeHead(200, { 'content-encoding': 'gzip' }).end(BOMB);
    else if (path === '/corrupt')
      res.writeHead(200, { 'content-encoding': 'gzip' }).end('definitely not gzip');
    else if (path === '/sitemap.xml.gz')
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(ENCODED.gzip);
    else if (path === '/big') res.end(Buffer.alloc(10_000, 'x'));
    else if (path === '/chunked-big') {
      // No Content-Length: the cap has to trip while counting.
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, 'y'));
      res.end();
    } else if (path === '/stall-body') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('<urlset>');
      // …and never the rest.
    } else if (path === '/drip') {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/echo-headers') res.end(JSON.stringify(req.headers));
    else res.writeHead(200, { 'content-length': '5', 'x-method': req.method ?? '' }).end('hello');
  });
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

async function bodyError(url: string, options: SafeFetchOptions): Promise<NetError> {
  const res = await safeFetch(url, options);
  const err = await rejectionOf(readAll(res.body));
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

describe('safeFetch body', () => {
  it.each(Object.keys(ENCODED))('decodes Content-Encoding %s and counts wire bytes', async (encoding) => {
    const res = await safeFetch(`${server.origin}/encoded/${encoding}`, local);
    expect((await readAll(res.body)).toString()).toBe(XML);
    expect(res.compressedBytes()).toBe(ENCODED[encoding]?.length);
  });

  it('keeps a .gz file served without Content-Encoding as raw compressed bytes', async () => {
    const res = await safeFetch(`${server.origin}/sitemap.xml.gz`, local);
    const bytes = await readAll(res.body);
    expect(bytes.equals(ENCODED.gzip as Buffer)).toBe(true);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  it('caps a gzip bomb at maxBytes of decoded output', async () => {
    const res = await safeFetch(`${server.origin}/bomb`, { ...local, maxBytes: 1024 * 1024 });
    let delivered = 0;
    const err = await rejectionOf(
      (async () => {
        for await (const chunk of res.body) delivered += chunk.length;
      })(),
    );
    expect((err as NetError).code).toBe('too_large');
    expect((err as NetError).message).toContain('1 MB limit');
    expect(delivered).toBeLessThanOrEqual(1024 * 1024);
  });

  it.each(['/big', '/chunked-big'])('fails %s with too_large past maxBytes', async (path) => {
    expect((await bodyError(`${server.origin}${path}`, { ...local, maxBytes: 4096 })).code).toBe('too_large');
  });

  it('delivers a body of exactly maxBytes', async () => {
    const res = await safeFetch(`${server.origin}/big`, { ...local, maxBytes: 10_000 });
    expect((await readAll(res.body)).length).toBe(10_000);
  });

  it('reports a corrupt compressed body as decode_failed', async () => {
    expect((await bodyError(`${server.origin}/corrupt`, local)).code).toBe('decode_failed');
  });

  it('errors the body with timeout when the server stalls after the headers (idle)', async () => {
    const err = await bodyError(`${server.origin}/stall-body`, { ...local, idleTimeoutMs: 100 });
    expect(err.code).toBe('timeout');
    expect(err.message).toContain('sent nothing for 100 ms');
  });

  it('errors the body with timeout at the overall deadline even while data trickles in', async () => {
    // Data comes every 20 ms, so the idle timeout never fires: the message names the deadline.
    const err = await bodyError(`${server.origin}/drip`, { ...local, timeoutMs: 250, idleTimeoutMs: 200 });
    expect(err.code).toBe('timeout');
    expect(err.message).toContain('timed out after 250 ms');
  });

  it('errors the body with aborted when the signal fires mid-stream', async () => {
    const controller = new AbortController();
    const res = await safeFetch(`${server.origin}/drip`, { ...local, signal: controller.signal });
    const reading = (async () => {
      // Aborted once the body has started to arrive.
      for await (const _chunk of res.body) controller.abort();
    })();
    expect(((await rejectionOf(reading)) as NetError).code).toBe('aborted');
  });

  it('closes the socket when the consumer stops early', async () => {
    const res = await safeFetch(`${server.origin}/drip`, local);
    for await (const _chunk of res.body) break;
    await expect.poll(() => server.openConnections(), { timeout: 1000, interval: 10 }).toBe(0);
  });

  it('sends the default User-Agent and Accept-Encoding, or USER_AGENT from the environment', async () => {
    const seen = async (options: SafeFetchOptions) =>
      JSON.parse(
        (await readAll((await safeFetch(`${server.origin}/echo-headers`, options)).body)).toString(),
      );
    vi.stubEnv('USER_AGENT', '');
    expect(await seen(local)).toMatchObject({
      'user-agent': DEFAULT_USER_AGENT,
      'accept-encoding': 'gzip, deflate, br',
    });
    vi.stubEnv('USER_AGENT', 'EnvBot/2');
    expect((await seen(local))['user-agent']).toBe('EnvBot/2');
    expect(
      (await seen({ ...local, userAgent: 'OptionBot/3', headers: { 'User-Agent': 'x' } }))['user-agent'],
    ).toBe('OptionBot/3');
  });

  it('sends HEAD and yields an empty body', async () => {
    const res = await safeFetch(`${server.origin}/head`, { ...local, method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['x-method']).toBe('HEAD');
    expect(res.headers['content-length']).toBe('5');
    expect((await readAll(res.body)).length).toBe(0);
  });

  it('reports TLS failures as tls_error (https to a plain-http port)', async () => {
    const err = await rejectionOf(safeFetch(`https://127.0.0.1:${server.port}/`, local));
    expect((err as NetError).code).toBe('tls_error');
  });
});
