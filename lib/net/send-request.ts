// One HTTP request to one URL: vet it, connect only to the vetted addresses, wait for headers
// under the idle and overall timeouts, and hand back the status, headers and a guarded body.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { assertPublicUrl, displayUrl } from './address-guard';
import { abortedError, connectTimeoutError, deadlineError, idleError, requestError } from './errors';
import { createBody, type StreamedBody } from './response-body';
import type { NetError, NetTestHooks, ResolvedAddress } from './types';

export interface RequestSettings {
  method: 'GET' | 'HEAD' | 'POST';
  body?: string | undefined;
  headers: Record<string, string>;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxBytes: number;
  allowPrivateNetwork: boolean;
  allowedPorts: readonly number[] | null;
  signal: AbortSignal | undefined;
  testHooks: NetTestHooks;
}

export interface RawResponse extends StreamedBody {
  status: number;
  headers: IncomingHttpHeaders;
}

export async function sendRequest(url: URL, settings: RequestSettings): Promise<RawResponse> {
  const shown = displayUrl(url);
  const deadlineAt = Date.now() + settings.timeoutMs;
  // getaddrinfo cannot be cancelled, so a hung resolver is raced rather than stopped.
  const addresses = await raceTimers(
    assertPublicUrl(url, { ...settings, resolve: settings.testHooks.resolve }),
    shown,
    settings,
  );

  return new Promise<RawResponse>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: settings.method,
      headers:
        settings.body === undefined
          ? settings.headers
          : { ...settings.headers, 'content-length': String(Buffer.byteLength(settings.body)) },
      // A fresh socket per request: a pooled one may have been opened under another request's
      // guard settings or DNS answer, and nothing then holds the process open after a fetch.
      agent: false,
      lookup: pinnedLookup(addresses, settings.testHooks.dial),
      // Socket inactivity from before the connect until the response headers; unlike
      // req.setTimeout(), this option also covers a connect that never completes.
      timeout: settings.idleTimeoutMs,
    });

    const fail = (err: NetError) => req.destroy(err);
    const onAbort = () => fail(abortedError(shown));
    const deadline = setTimeout(
      () => fail(deadlineError(shown, settings.timeoutMs)),
      Math.max(0, deadlineAt - Date.now()),
    );
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('timeout', () => {
      const build = req.socket?.connecting ? connectTimeoutError : idleError;
      fail(build(shown, settings.idleTimeoutMs));
    });
    const cleanUp = () => {
      clearTimeout(deadline);
      settings.signal?.removeEventListener('abort', onAbort);
    };

    req.on('error', (err) => {
      cleanUp();
      reject(requestError(err, shown));
    });
    req.on('response', (res) => {
      cleanUp();
      // From here the body guards its own time; failures surface through it, not through `req`.
      res.socket?.setTimeout(0);
      req.removeAllListeners('timeout');
      req.removeAllListeners('error');
      req.on('error', () => {});
      const status = res.statusCode ?? 0;
      const hasBody = settings.method !== 'HEAD' && status !== 204 && status !== 304 && status >= 200;
      const streamed = createBody(res, shown, { ...settings, deadlineAt, hasBody });
      resolve({ status, headers: res.headers, ...streamed });
    });
    if (settings.signal?.aborted) onAbort();
    req.end(settings.body);
  });
}

/** Hands the socket the vetted addresses and nothing else: DNS is not asked a second time. */
function pinnedLookup(addresses: ResolvedAddress[], dial: NetTestHooks['dial']): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = addresses.filter((a) => !family || a.family === family).map((a) => (dial ? dial(a) : a));
    const first = usable[0];
    if (first === undefined) {
      const err = Object.assign(new Error(`No usable address for ${hostname}`), { code: 'ENOTFOUND' });
      callback(err, '', 0);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** Rejects with a timeout when the connect-phase idle time or the deadline passes, or on abort. */
function raceTimers<T>(work: Promise<T>, shown: string, settings: RequestSettings): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { idleTimeoutMs, timeoutMs } = settings;
    const timer = setTimeout(
      () =>
        reject(idleTimeoutMs < timeoutMs ? idleError(shown, idleTimeoutMs) : deadlineError(shown, timeoutMs)),
      Math.min(idleTimeoutMs, timeoutMs),
    );
    const onAbort = () => reject(abortedError(shown));
    if (settings.signal?.aborted) onAbort();
    settings.signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      settings.signal?.removeEventListener('abort', onAbort);
    });
  });
}
