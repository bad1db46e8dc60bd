// Route handlers behind a real HTTP server on 127.0.0.1, so tests see what the socket's peer is and what
// a client can only claim in headers. Requests are stamped by the same installPeerStamp that
// instrumentation.ts runs under Next.js, and, like Next.js, X-Forwarded-For is filled in with the peer
// only when the client sent none.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { installPeerStamp } from '@/lib/auth/peer';

type Handler = (request: Request) => Promise<Response>;

export interface RouteServer {
  origin: string;
  close(): Promise<void>;
}

export interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from a loopback address of the test's choosing (all of 127.0.0.0/8 is this machine), so
 * each test is its own client as far as the socket can tell. */
export function send(
  origin: string,
  path: string,
  {
    method = 'POST',
    headers = {},
    body,
    from = '127.0.0.1',
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    from?: string;
  } = {},
): Promise<Sent> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}${path}`,
      {
        method,
        localAddress: from,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export async function startRouteServer(routes: Record<string, Handler>): Promise<RouteServer> {
  installPeerStamp();
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      req.headers['x-forwarded-for'] ??= req.socket.remoteAddress;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const handler = routes[`${req.method} ${url.pathname}`];
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const body = chunks.length > 0 && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
      const response = await handler(new Request(url, { method: req.method, headers, body }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
