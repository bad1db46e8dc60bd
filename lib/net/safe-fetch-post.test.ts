// POST through the safe client (the Search Console API): the body arrives whole with its length, is
// sent again on a retry, and a redirect is answered, never followed with the body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch } from './safe-fetch';
import { readAll, startTestServer, type TestServer } from './test-server';

let server: TestServer;
const bodies: string[] = [];
let flaky = 0;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => {
      bodies.push(text);
      if (req.url === '/moved') res.writeHead(307, { location: '/echo' }).end();
      else if (req.url === '/flaky' && flaky++ === 0) res.writeHead(503).end();
      else res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], text }));
    });
  });
});

afterAll(async () => {
  await server.close();
});

const local = { allowPrivateNetwork: true, timeoutMs: 2000, retryBaseMs: 1 } as const;

describe('safeFetch POST', () => {
  it('sends the body with its content-length', async () => {
    const body = JSON.stringify({ inspectionUrl: 'https://example.com/é' });
    const res = await safeFetch(`${server.origin}/echo`, { ...local, method: 'POST', body });
    const echoed = JSON.parse(Buffer.from(await readAll(res.body)).toString('utf8'));
    expect(echoed).toEqual({ method: 'POST', length: String(Buffer.byteLength(body)), text: body });
  });

  it('sends the body again when a 503 is retried', async () => {
    bodies.length = 0;
    const res = await safeFetch(`${server.origin}/flaky`, { ...local, method: 'POST', body: 'x=1' });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(bodies).toEqual(['x=1', 'x=1']);
  });

  it('returns a redirect as the answer instead of following it with the body', async () => {
    bodies.length = 0;
    const res = await safeFetch(`${server.origin}/moved`, { ...local, method: 'POST', body: 'secret' });
    res.body.destroy();
    expect(res.status).toBe(307);
    expect(bodies).toEqual(['secret']);
  });
});
