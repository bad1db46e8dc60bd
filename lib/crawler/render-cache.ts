// The scripts a rendering crawl has fetched, kept for its later pages. Routing every request through
// safeFetch turns off Chromium's own HTTP cache, and a site's bundles are the same on every page: without
// this, a 10,000-page crawl would ask for each bundle 10,000 times. Bounded by bytes, least recently used
// out first; a load in flight is shared, so pages rendered at once ask for a script once.

export interface CachedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface ScriptCache {
  /** The cached answer for `url`, else `load`'s (kept when cacheable); null: the script is not served. */
  get(url: string, load: () => Promise<CachedResponse | null>): Promise<CachedResponse | null>;
  /** Bytes held now (for tests and the benchmark). */
  size(): number;
}

export function createScriptCache(maxBytes: number): ScriptCache {
  const kept = new Map<string, CachedResponse>();
  const loading = new Map<string, Promise<CachedResponse | null>>();
  let bytes = 0;

  function keep(url: string, response: CachedResponse) {
    if (!isCacheable(response) || response.body.length > maxBytes) return;
    kept.set(url, response);
    bytes += response.body.length;
    // Map iteration follows insertion order, and a hit re-inserts: the first key is the least recent.
    for (const [oldUrl, old] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(oldUrl);
      bytes -= old.body.length;
    }
  }

  return {
    get(url, load) {
      const hit = kept.get(url);
      if (hit) {
        kept.delete(url);
        kept.set(url, hit);
        return Promise.resolve(hit);
      }
      const pending = loading.get(url);
      if (pending) return pending;
      const started = load().then(
        (response) => {
          loading.delete(url);
          if (response) keep(url, response);
          return response;
        },
        (err: unknown) => {
          loading.delete(url);
          throw err;
        },
      );
      loading.set(url, started);
      return started;
    },
    size: () => bytes,
  };
}

function isCacheable(response: CachedResponse): boolean {
  if (response.status !== 200) return false;
  const control = response.headers['cache-control'];
  const text = (Array.isArray(control) ? control.join(',') : (control ?? '')).toLowerCase();
  return !/(^|[\s,])no-store([\s,]|$)/.test(text);
}
