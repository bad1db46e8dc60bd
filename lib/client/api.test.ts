import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, isNotFound, parseErrorEnvelope, type Sendable, sendJson } from './api';

function answer(status: number, body: string | null, type = 'application/json') {
  const fetch = vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('parseErrorEnvelope', () => {
  it('reads code and message, and only strings', () => {
    expect(parseErrorEnvelope({ error: { code: 'conflict', message: 'Already ended' } })).toEqual({
      code: 'conflict',
      message: 'Already ended',
    });
    expect(parseErrorEnvelope({ error: { code: 7, message: null } })).toEqual({
      code: undefined,
      message: undefined,
    });
    expect(parseErrorEnvelope({ error: 'nope' })).toEqual({});
    expect(parseErrorEnvelope(null)).toEqual({});
    expect(parseErrorEnvelope('text')).toEqual({});
  });
});

describe('apiFetch', () => {
  it('returns the JSON body and asks for JSON', async () => {
    const fetch = answer(200, '{"items":[1,2]}');
    await expect(apiFetch('/api/v1/x', { headers: { 'x-extra': '1' } })).resolves.toEqual({ items: [1, 2] });
    expect(fetch).toHaveBeenCalledWith('/api/v1/x', {
      headers: { accept: 'application/json', 'x-extra': '1' },
    });
  });

  it('returns undefined for 204', async () => {
    answer(204, null);
    await expect(apiFetch('/api/v1/x', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it("turns the error envelope into an ApiError with the server's code and message", async () => {
    answer(409, '{"error":{"code":"conflict","message":"This audit has already ended"}}');
    const error = await apiFetch('/api/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'conflict', message: 'This audit has already ended' });
    expect(isNotFound(error)).toBe(false);
  });

  it('names the status when the body is not an envelope, and recognises 404', async () => {
    answer(404, '<html>gone</html>', 'text/html');
    const error = await apiFetch('/api/v1/x').catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 404,
      code: 'http_error',
      message: 'The server answered with HTTP 404.',
    });
    expect(isNotFound(error)).toBe(true);
    expect(isNotFound(new Error('404'))).toBe(false);
  });

  it('reports a request that got no answer as a network error (status 0)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed');
      }),
    );
    await expect(apiFetch('/api/v1/x')).rejects.toMatchObject({ status: 0, code: 'network' });
  });
});

describe('sendJson', () => {
  it('sends a JSON body with its content type, and none without a body', async () => {
    const fetch = answer(201, '{"id":"t1"}');
    await expect(sendJson('/api/v1/tokens', 'POST', { name: 'n' })).resolves.toEqual({ id: 't1' });
    expect(fetch).toHaveBeenLastCalledWith('/api/v1/tokens', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{"name":"n"}',
    });
    await sendJson('/api/v1/tokens/t1', 'DELETE');
    expect(fetch).toHaveBeenLastCalledWith('/api/v1/tokens/t1', {
      method: 'DELETE',
      headers: { accept: 'application/json' },
      body: undefined,
    });
  });
});

// Checked by `npm run typecheck`: what a route may hand to json() for a DTO.
describe('Sendable', () => {
  interface Dto {
    at: string;
    count: number;
    role: 'admin' | 'viewer';
    items: { when: string | null }[];
  }

  it('takes Dates for strings and bigints for numbers, nothing looser', () => {
    const sent = {
      at: new Date(0),
      count: 3n,
      role: 'admin',
      items: [{ when: null }, { when: new Date(0) }],
    } satisfies Sendable<Dto>;
    expect(JSON.parse(JSON.stringify(sent, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)))).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      count: 3,
      role: 'admin',
      items: [{ when: null }, { when: '1970-01-01T00:00:00.000Z' }],
    });
    // @ts-expect-error a literal union is not widened to Date
    ({ ...sent, role: new Date(0) }) satisfies Sendable<Dto>;
    // @ts-expect-error a missing field breaks the contract
    ({ at: sent.at, count: 1, role: 'viewer' }) satisfies Sendable<Dto>;
  });
});
