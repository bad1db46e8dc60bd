// A stand-in for Google on 127.0.0.1, for tests and the e2e fixture server: the OAuth token endpoint
// (it verifies the JWT's RS256 signature with the service account's public key, its aud, scope and
// lifetime, as Google does) and urlInspection/index:inspect with scripted answers.
import { createVerify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { INSPECTION_SCOPE } from './inspection-client';

export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FakeGoogleOptions {
  publicKey: KeyObject | string;
  clientEmail: string;
  /** The answer for one inspected URL (default: indexed, "Submitted and indexed"). */
  inspect?: (url: string, siteUrl: string) => FakeAnswer;
  tokenSeconds?: number;
  /** A fixed port (the e2e fixture server's); default a free one. */
  port?: number;
  /** Served at GET /service-account.json, so a browser test can upload the key the fake trusts. */
  serveKey?: unknown;
}

export interface FakeGoogle {
  server: Pick<TestServer, 'origin' | 'port' | 'close'>;
  tokenUrl: string;
  apiBase: string;
  /** Tokens handed out, in order. */
  tokens: string[];
  /** Each inspect call's URL and site, in order (retried calls included). */
  inspected: { url: string; siteUrl: string }[];
  /** Why the last refused assertion was refused. */
  refusals: string[];
  /** Makes the token endpoint answer invalid_grant, as Google does for a deleted key. */
  revoke(): void;
  close(): Promise<void>;
}

export function indexedAnswer(url: string): FakeAnswer {
  return {
    status: 200,
    body: {
      inspectionResult: {
        inspectionResultLink: 'https://search.google.com/search-console/inspect',
        indexStatusResult: {
          verdict: 'PASS',
          coverageState: 'Submitted and indexed',
          robotsTxtState: 'ALLOWED',
          indexingState: 'INDEXING_ALLOWED',
          lastCrawlTime: '2026-11-20T10:00:00Z',
          pageFetchState: 'SUCCESSFUL',
          googleCanonical: url,
          userCanonical: url,
          sitemap: ['https://example.com/sitemap.xml'],
        },
      },
    },
  };
}

function readText(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, answer: FakeAnswer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer.body));
}

export async function startFakeGoogle(options: FakeGoogleOptions): Promise<FakeGoogle> {
  const tokens: string[] = [];
  const inspected: FakeGoogle['inspected'] = [];
  const refusals: string[] = [];
  let revoked = false;
  let tokenUrl = '';

  const refuse = (res: http.ServerResponse, why: string) => {
    refusals.push(why);
    send(res, { status: 400, body: { error: 'invalid_grant', error_description: why } });
  };

  const checkAssertion = (assertion: string): string | null => {
    const [header, claims, signature] = assertion.split('.');
    if (!header || !claims || !signature) return 'Invalid JWT: not three parts';
    const verified = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(options.publicKey, Buffer.from(signature, 'base64url'));
    if (!verified) return 'Invalid JWT Signature.';
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (h.alg !== 'RS256') return `Invalid JWT: alg ${String(h.alg)}`;
    if (c.iss !== options.clientEmail) return 'Invalid JWT: iss';
    if (c.aud !== tokenUrl) return `Invalid JWT: aud ${String(c.aud)}`;
    if (c.scope !== INSPECTION_SCOPE) return `Invalid JWT: scope ${String(c.scope)}`;
    const iat = Number(c.iat);
    const exp = Number(c.exp);
    if (!(exp > iat) || exp - iat > 3600) return 'Invalid JWT: exp must be within an hour of iat';
    return null;
  };

  const handler: http.RequestListener = (req, res) => {
    void readText(req).then((body) => {
      if (req.method === 'GET' && req.url === '/service-account.json' && options.serveKey) {
        return send(res, { status: 200, body: options.serveKey });
      }
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          return refuse(res, 'unsupported grant_type');
        }
        if (revoked) return refuse(res, 'Invalid grant: account not found');
        const why = checkAssertion(form.get('assertion') ?? '');
        if (why) return refuse(res, why);
        const token = `ya29.fake-${tokens.length + 1}`;
        tokens.push(token);
        return send(res, {
          status: 200,
          body: { access_token: token, expires_in: options.tokenSeconds ?? 3599, token_type: 'Bearer' },
        });
      }
      if (req.method === 'POST' && req.url === '/v1/urlInspection/index:inspect') {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!bearer || !tokens.includes(bearer)) {
          return send(res, {
            status: 401,
            body: {
              error: {
                code: 401,
                message: 'Request had invalid authentication credentials.',
                status: 'UNAUTHENTICATED',
              },
            },
          });
        }
        const { inspectionUrl, siteUrl } = JSON.parse(body) as { inspectionUrl: string; siteUrl: string };
        inspected.push({ url: inspectionUrl, siteUrl });
        return send(res, (options.inspect ?? indexedAnswer)(inspectionUrl, siteUrl));
      }
      send(res, { status: 404, body: { error: { code: 404, message: 'Not found' } } });
    });
  };
  const server =
    options.port === undefined ? await startTestServer(handler) : await listenOn(options.port, handler);
  tokenUrl = `${server.origin}/token`;
  return {
    server,
    tokenUrl,
    apiBase: server.origin,
    tokens,
    inspected,
    refusals,
    revoke() {
      revoked = true;
    },
    close: () => server.close(),
  };
}

async function listenOn(port: number, handler: http.RequestListener): Promise<FakeGoogle['server']> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
