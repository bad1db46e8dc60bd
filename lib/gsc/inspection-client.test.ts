// The URL Inspection client against a fake Google on 127.0.0.1: the JWT-bearer token flow (the fake
// verifies the RS256 signature, aud, scope and lifetime), token caching, 5xx retried, a quota answer (429 RESOURCE_EXHAUSTED) never, the rate limit, and
// a revoked or unauthorised key stopping with Google's message.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceAccountKey } from './credentials';
import {
  GscAccessError,
  GscQuotaError,
  InspectionClient,
  type InspectionClientOptions,
} from './inspection-client';
import { type FakeAnswer, type FakeGoogle, indexedAnswer, startFakeGoogle } from './inspection-fake-google';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const { publicKey, privateKey } = pair();
const key: ServiceAccountKey = {
  clientEmail: 'audit@project.iam.gserviceaccount.com',
  privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  privateKeyId: 'k1',
};
const PROPERTY = 'sc-domain:example.com';

let google: FakeGoogle;
/** url → answers still to give, in order; then indexed. */
const script = new Map<string, FakeAnswer[]>();

beforeAll(async () => {
  google = await startFakeGoogle({
    publicKey,
    clientEmail: key.clientEmail,
    inspect: (url) => script.get(url)?.shift() ?? indexedAnswer(url),
  });
});

afterAll(() => google.close());

afterEach(() => {
  vi.unstubAllEnvs();
  script.clear();
});

function client(more: Partial<InspectionClientOptions> = {}): InspectionClient {
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  return new InspectionClient({
    key,
    property: PROPERTY,
    env: {
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
      GSC_API_BASE_URL: google.apiBase,
      GSC_INSPECTION_RATE: '1000',
    },
    net: { retryBaseMs: 1 },
    ...more,
  });
}

describe('InspectionClient', () => {
  it('signs a token request Google accepts and reads indexStatusResult', async () => {
    const before = google.tokens.length;
    const answer = await client().inspect('https://example.com/a');
    expect(google.tokens.length).toBe(before + 1);
    expect(google.inspected.at(-1)).toEqual({ url: 'https://example.com/a', siteUrl: PROPERTY });
    expect(answer).toEqual({
      ok: true,
      status: {
        verdict: 'PASS',
        coverageState: 'Submitted and indexed',
        indexingState: 'INDEXING_ALLOWED',
        pageFetchState: 'SUCCESSFUL',
        robotsTxtState: 'ALLOWED',
        googleCanonical: 'https://example.com/a',
        userCanonical: 'https://example.com/a',
        lastCrawlTime: '2026-11-20T10:00:00Z',
        sitemaps: ['https://example.com/sitemap.xml'],
      },
    });
  });

  it('keeps its token until 60 s before it expires', async () => {
    let now = Date.parse('2026-12-01T12:00:00Z');
    const c = client({ now: () => now });
    const before = google.tokens.length;
    await c.inspect('https://example.com/1');
    now += 3599_000 - 61_000;
    await c.inspect('https://example.com/2');
    expect(google.tokens.length).toBe(before + 1);
    now += 2_000; // now within the last minute of the token
    await c.inspect('https://example.com/3');
    expect(google.tokens.length).toBe(before + 2);
  });

  it('refuses to sign for a key the fake does not know (the signature is checked)', async () => {
    const other = pair().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const error = await client({ key: { ...key, privateKey: other } })
      .inspect('https://example.com/a')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GscAccessError);
    expect(google.refusals.at(-1)).toBe('Invalid JWT Signature.');
  });

  it('retries a 503 and a 429 that is no quota answer, then takes the answer', async () => {
    const url = 'https://example.com/busy';
    script.set(url, [
      { status: 503, body: {} },
      { status: 429, body: { error: { message: 'slow down' } } },
    ]);
    const calls = google.inspected.length;
    const answer = await client().inspect(url);
    expect(answer.ok).toBe(true);
    expect(google.inspected.length - calls).toBe(3);
  });

  it.each([
    [
      'the day',
      429,
      {
        code: 429,
        message: 'Quota exceeded for quota metric URL inspection requests per day per site.',
        status: 'RESOURCE_EXHAUSTED',
      },
      'day',
    ],
    [
      'the minute',
      429,
      {
        code: 429,
        message: "Quota exceeded for limit 'URL inspection requests per minute per site'.",
        status: 'RESOURCE_EXHAUSTED',
      },
      'minute',
    ],
    [
      'an unspecified quota',
      429,
      { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' },
      'day',
    ],
    [
      'the day (an older 403)',
      403,
      { code: 403, message: 'Daily Limit Exceeded', errors: [{ reason: 'dailyLimitExceeded' }] },
      'day',
    ],
  ])('stops on a quota answer for %s after that one call', async (_what, status, error, limit) => {
    const url = `https://example.com/quota-${limit}-${status}`;
    script.set(url, [{ status, body: { error } }]);
    const calls = google.inspected.length;
    const thrown = await client()
      .inspect(url)
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(GscQuotaError);
    expect(thrown).toMatchObject({ status, limit, googleMessage: error.message });
    // The quota answer is not retried: one call, none after it.
    expect(google.inspected.length - calls).toBe(1);
  });

  it('gives a URL Google keeps refusing an error of its own, not the run', async () => {
    const url = 'https://other.example/x';
    script.set(url, [
      { status: 400, body: { error: { message: 'URL not in property', status: 'INVALID_ARGUMENT' } } },
    ]);
    expect(await client().inspect(url)).toEqual({
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: 'URL not in property',
    });
  });

  it('stops with the property and Google’s message on a 403', async () => {
    const url = 'https://example.com/forbidden';
    script.set(url, [
      {
        status: 403,
        body: {
          error: {
            code: 403,
            message: "User does not have sufficient permission for site 'sc-domain:example.com'.",
          },
        },
      },
    ]);
    await expect(client().inspect(url)).rejects.toThrow(
      "the key was revoked or has no access to sc-domain:example.com: User does not have sufficient permission for site 'sc-domain:example.com'.",
    );
  });

  it('spaces calls to GSC_INSPECTION_RATE a second', async () => {
    let now = 0;
    const waits: number[] = [];
    const c = new InspectionClient({
      key,
      property: PROPERTY,
      env: {
        GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
        GSC_API_BASE_URL: google.apiBase,
        GSC_INSPECTION_RATE: '4',
      },
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
    for (const path of ['a', 'b', 'c']) await c.inspect(`https://example.com/${path}`);
    expect(waits).toEqual([250, 250]);
  });
});

describe('a revoked key', () => {
  it('fails at the token with invalid_grant, naming the property', async () => {
    const revoked = await startFakeGoogle({ publicKey, clientEmail: key.clientEmail });
    try {
      revoked.revoke();
      vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
      const c = new InspectionClient({
        key,
        property: PROPERTY,
        env: { GOOGLE_OAUTH_TOKEN_URL: revoked.tokenUrl, GSC_API_BASE_URL: revoked.apiBase },
      });
      await expect(c.inspect('https://example.com/a')).rejects.toThrow(
        'the key was revoked or has no access to sc-domain:example.com: Invalid grant: account not found',
      );
      expect(revoked.inspected).toEqual([]);
    } finally {
      await revoked.close();
    }
  });
});
