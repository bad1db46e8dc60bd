import { describe, expect, it } from 'vitest';
import { type CachedResponse, createScriptCache } from './render-cache';

const script = (bytes: number, headers: CachedResponse['headers'] = {}, status = 200): CachedResponse => ({
  status,
  headers,
  body: Buffer.alloc(bytes, 'x'),
});

function counted(response: CachedResponse | null) {
  const calls = { count: 0 };
  const load = async () => {
    calls.count++;
    return response;
  };
  return { calls, load };
}

describe('createScriptCache', () => {
  it('asks once for a script, also when pages ask for it at the same time', async () => {
    const cache = createScriptCache(1000);
    const { calls, load } = counted(script(10));
    const [a, b] = await Promise.all([cache.get('/app.js', load), cache.get('/app.js', load)]);
    const c = await cache.get('/app.js', load);
    expect(calls.count).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('drops the least recently used script beyond its byte budget', async () => {
    const cache = createScriptCache(100);
    await cache.get('/a.js', counted(script(40)).load);
    await cache.get('/b.js', counted(script(40)).load);
    // /a.js used again: /b.js is now the oldest, and goes when /c.js comes.
    await cache.get('/a.js', counted(null).load);
    await cache.get('/c.js', counted(script(40)).load);
    expect(cache.size()).toBe(80);
    const a = counted(script(40));
    const b = counted(script(40));
    await cache.get('/a.js', a.load);
    await cache.get('/b.js', b.load);
    expect([a.calls.count, b.calls.count]).toEqual([0, 1]);
  });

  it('keeps no error, no no-store answer, no failed load and nothing larger than the budget', async () => {
    const cache = createScriptCache(100);
    const answers = [
      script(10, {}, 404),
      script(10, { 'cache-control': 'private, no-store' }),
      script(101),
      null,
    ];
    for (const [at, answer] of answers.entries()) await cache.get(`/s${at}.js`, counted(answer).load);
    await expect(cache.get('/broken.js', () => Promise.reject(new Error('reset')))).rejects.toThrow('reset');
    expect(cache.size()).toBe(0);
    const again = counted(script(10));
    await cache.get('/broken.js', again.load);
    expect(again.calls.count).toBe(1);
  });
});
