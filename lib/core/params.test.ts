import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import {
  checkQuery,
  findingIdParam,
  jsonBody,
  limitParam,
  MAX_JSON_BYTES,
  MAX_QUERY_CHARS,
  positionCursorParam,
} from './params';
import { textProblem } from './text';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://localhost/x', { method: 'POST', body, headers });

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('textProblem', () => {
  it('refuses NUL and unpaired surrogates, takes paired ones', () => {
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    expect(textProblem('\ud800')).toMatch(/unpaired/);
    expect(textProblem('x\udc00')).toMatch(/unpaired/);
    expect(textProblem('\udc00\ud800')).toMatch(/unpaired/);
    expect(textProblem('карта 😀 サイト')).toBeNull();
  });
});

describe('jsonBody', () => {
  it('parses a JSON body whatever its content type', async () => {
    expect(await jsonBody(post('{"a":[1,"x"]}', { 'content-type': 'text/plain' }))).toEqual({ a: [1, 'x'] });
  });

  it.each([
    ['a NUL in a nested string', '{"filter":{"q":"a\\u0000"}}', 400, /^filter\.q: must not contain a NUL/],
    [
      'a lone surrogate in an array',
      '{"ids":["x","\\ud800"]}',
      400,
      /^ids\[1\]: must not contain an unpaired/,
    ],
    ['a NUL in a key', '{"a":{"\\u0000":1}}', 400, /field name in a must not contain a NUL/],
    ['a NUL as the whole body', '"\\u0000"', 400, /^body: must not contain a NUL/],
    ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 400, /nested too deeply/],
    ['an empty body', '', 400, /The body is empty/],
    ['malformed JSON', '{oops', 400, /not valid JSON/],
  ])('refuses %s', async (_label, body, status, message) => {
    const refused = await refusal(jsonBody(post(body)));
    expect(refused.status).toBe(status);
    expect(refused.message).toMatch(message);
  });

  it('refuses a body over the cap, declared or not', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_JSON_BYTES) });
    expect((await refusal(jsonBody(post(big)))).status).toBe(413);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const request = new Request('http://localhost/x', {
      method: 'POST',
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    expect((await refusal(jsonBody(request))).status).toBe(413);
  });
});

describe('checkQuery', () => {
  it('names the parameter that holds a NUL', () => {
    expect(() => checkQuery('http://localhost/x?list=prune&q=a%00b')).toThrow(
      /query parameter "q" must not contain a NUL/,
    );
    expect(() => checkQuery('http://localhost/x?a%00=1')).toThrow(
      /query parameter "a\\u0000" must not contain a NUL/,
    );
  });

  it('refuses a query string over the cap and takes one at it', () => {
    expect(() => checkQuery(`http://localhost/x?q=${'x'.repeat(MAX_QUERY_CHARS)}`)).toThrow(/too long/);
    expect(() => checkQuery(`http://localhost/x?q=${'x'.repeat(MAX_QUERY_CHARS - 3)}`)).not.toThrow();
    // Invalid UTF-8 is decoded to U+FFFD, which is storable.
    expect(() => checkQuery('http://localhost/x?q=%ED%A0%80')).not.toThrow();
  });
});

describe('numbers from the path and query', () => {
  it('takes finding ids in int4 only, as a 404 otherwise', () => {
    expect(findingIdParam('2147483647')).toBe(2_147_483_647);
    for (const bad of ['2147483648', '99999999999', '0', '-1', '1.5', '1e3', ' 1', '0x10', '', undefined]) {
      expect(() => findingIdParam(bad), String(bad)).toThrow(/No such finding/);
    }
  });

  it('takes positions in int4 and limits in range', () => {
    expect(positionCursorParam('0')).toBe(0);
    expect(positionCursorParam(null)).toBeUndefined();
    expect(() => positionCursorParam('2147483648')).toThrow(/cursor is not valid/);
    expect(() => positionCursorParam('9007199254740993')).toThrow(/cursor is not valid/);
    expect(limitParam('10', 5, 100)).toBe(10);
    for (const bad of ['0', '101', '1e1', '1.0', ' 5', '-1']) {
      expect(() => limitParam(bad, 5, 100), bad).toThrow(/limit must be/);
    }
  });
});
