// The crawler's plain HTTP fetcher: one guarded request per URL (lib/net), no redirect followed and no retry
// (the engine paces, pauses and retries), a HEAD for files that are not pages, and an HTML body read as it
// streams, up to a cap, for its links, canonical and robots meta. Anything else is closed unread.
import { resolveOptions } from '@/lib/net/options';
import { parseRetryAfter } from '@/lib/net/retry-policy';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type NetTestHooks, type SafeResponse } from '@/lib/net/types';
import {
  canonicalFromLinkHeader,
  headerSaysNofollow,
  headerSaysNoindex,
} from '@/lib/spot-check/header-signals';
import { createPageReader, type PageSignals } from './page-reader';
import { type PageFetch, type PageFetcher, unanswered } from './types';

export interface PageFetcherOptions {
  /** Default: env USER_AGENT, else the product's (lib/net/options.ts). */
  userAgent?: string;
  /** One request, from DNS to the last byte read (default 20_000). */
  timeoutMs?: number;
  /** HTML bytes read per page (default 5 MiB); a longer page is cut there and marked `truncated`. */
  maxBodyBytes?: number;
  allowPrivateNetwork?: boolean;
  allowedPorts?: number[];
  /** @internal Test seams of lib/net. */
  testHooks?: NetTestHooks;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Extensions of files that are not pages: checked with HEAD (or a one-byte GET), never read. Feeds and
 * sitemaps (xml, rss, atom) are in: a crawler reads pages, and the audit reads sitemaps its own way. */
export const RESOURCE_EXTENSIONS: ReadonlySet<string> = new Set(
  [
    // documents and data
    'pdf doc docx xls xlsx ppt pptx odt ods odp rtf csv tsv txt json xml rss atom ics epub',
    // images
    'jpg jpeg png gif webp avif svg ico bmp tif tiff heic',
    // archives and installers
    'zip gz tgz bz2 xz 7z rar tar dmg exe msi apk deb rpm iso',
    // audio and video
    'mp3 wav ogg oga flac aac m4a mp4 m4v webm mov avi mkv wmv flv',
    // fonts, styles, scripts and maps
    'woff woff2 ttf otf eot css js mjs map wasm',
  ]
    .join(' ')
    .split(' '),
);

/** True when the URL's last path segment ends in one of RESOURCE_EXTENSIONS. */
export function isResourceUrl(url: URL): boolean {
  const path = url.pathname;
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return false;
  return RESOURCE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RATE_LIMITED = new Set([429, 503]);
// What a browser asks for when it follows a link: servers that vary on Accept answer the page.
const ACCEPT_PAGE = 'text/html,application/xhtml+xml,*/*;q=0.8';

export function createPageFetcher(options: PageFetcherOptions = {}): PageFetcher {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const net = {
    // Settled once: every request of a crawl identifies itself the same way, whatever the env does meanwhile.
    userAgent: resolveOptions({ userAgent: options.userAgent }).userAgent,
    allowPrivateNetwork: options.allowPrivateNetwork,
    allowedPorts: options.allowedPorts,
    timeoutMs,
    idleTimeoutMs: Math.min(timeoutMs, 10_000),
    followRedirects: false,
    retries: 0,
    // The cap is ours (cut, not failed): lib/net's own cap would fail a long page outright.
    maxBytes: Number.MAX_SAFE_INTEGER,
    testHooks: options.testHooks,
  };

  return async function fetchPage(url: string, signal: AbortSignal): Promise<PageFetch> {
    const fetchedAt = new Date();
    const started = performance.now();
    const result = unanswered(url, fetchedAt);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      result.error = { code: 'bad_url', message: `"${url.slice(0, 200)}" is not a valid URL` };
      return result;
    }
    const resource = isResourceUrl(parsed);
    let res: SafeResponse | null = null;
    try {
      result.method = resource ? 'HEAD' : 'GET';
      res = await safeFetch(url, {
        ...net,
        method: result.method,
        headers: { accept: resource ? '*/*' : ACCEPT_PAGE },
        signal,
      });
      if (resource && (res.status === 405 || res.status === 501)) {
        // A server that refuses HEAD still says whether the file is there when asked for its first byte.
        res.body.destroy();
        result.method = 'GET';
        res = await safeFetch(url, { ...net, method: 'GET', headers: { range: 'bytes=0-0' }, signal });
      }
      readHeaders(result, res, parsed, resource);
      // Only a successful page is read: an error page's links and robots meta say nothing about the site.
      const readable = !resource && res.status >= 200 && res.status < 300 && isHtml(result.contentType);
      if (readable) {
        const { signals, truncated } = await readHtml(url, res, result.contentType, cap);
        result.truncated = truncated;
        applySignals(result, signals);
      } else res.body.destroy();
    } catch (err) {
      res?.body.destroy();
      if (!(err instanceof NetError)) throw err;
      result.error = { code: err.code, message: err.message };
    }
    result.responseMs = Math.round(performance.now() - started);
    return result;
  };
}

function readHeaders(result: PageFetch, res: SafeResponse, url: URL, resource: boolean): void {
  // The 206 answers only our own Range header; the file itself is there, as a full GET would say with 200.
  result.status = resource && res.status === 206 ? 200 : res.status;
  result.contentType = headerText(res.headers['content-type']);
  const location = headerText(res.headers.location);
  if (REDIRECT_STATUSES.has(res.status) && location !== null) {
    try {
      result.redirectUrl = new URL(location, url).href;
    } catch {
      result.error = {
        code: 'bad_url',
        message: `${url.href} redirects to "${location.slice(0, 200)}", not a valid URL`,
      };
    }
  }
  if (RATE_LIMITED.has(res.status)) result.retryAfterMs = parseRetryAfter(res.headers['retry-after']) ?? null;
  if (headerSaysNoindex(res.headers['x-robots-tag'])) {
    result.noindex = true;
    result.noindexSources = ['header'];
  }
  if (headerSaysNofollow(res.headers['x-robots-tag'])) result.nofollow = true;
  const canonical = canonicalFromLinkHeader(res.headers.link, url.href);
  if (canonical !== null) {
    result.canonical = canonical;
    result.canonicalSource = 'header';
  }
}

function applySignals(result: PageFetch, signals: PageSignals): void {
  result.links = signals.links;
  result.nofollowLinks = signals.nofollowLinks;
  if (signals.noindexSources.length > 0) {
    result.noindex = true;
    result.noindexSources = [...signals.noindexSources, ...result.noindexSources];
  }
  if (signals.nofollow) result.nofollow = true;
  // The page's own tag wins over the header when both are present.
  if (signals.canonical !== null) {
    result.canonical = signals.canonical;
    result.canonicalSource = 'link';
  }
}

async function readHtml(
  pageUrl: string,
  res: SafeResponse,
  contentType: string | null,
  cap: number,
): Promise<{ signals: PageSignals; truncated: boolean }> {
  const reader = createPageReader(pageUrl);
  // The header's charset wins; without one, the page's own <meta> says it (read from the first bytes).
  const declared = charsetOf(contentType);
  let decoder: TextDecoder | null = declared === null ? null : decoderFor(declared);
  const chunks = res.body[Symbol.asyncIterator]();
  let read = 0;
  let truncated = false;
  try {
    while (true) {
      const step = await chunks.next();
      if (step.done) break;
      decoder ??= decoderFor(sniffCharset(step.value));
      const room = cap - read;
      if (step.value.length >= room) {
        reader.write(decoder.decode(step.value.subarray(0, room), { stream: true }));
        // A body exactly as long as the cap is whole; one byte more means links past the cut are unseen.
        truncated = step.value.length > room || !(await chunks.next()).done;
        break;
      }
      read += step.value.length;
      reader.write(decoder.decode(step.value, { stream: true }));
    }
  } finally {
    res.body.destroy();
  }
  if (decoder) reader.write(decoder.decode());
  return { signals: reader.end(), truncated };
}

function isHtml(contentType: string | null): boolean {
  // No Content-Type at all: read it as HTML, as a browser sniffing a page would.
  if (contentType === null) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

function charsetOf(contentType: string | null): string | null {
  return /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? '')?.[1] ?? null;
}

// A browser looks for the charset in the first 1,024 bytes: <meta charset> or <meta http-equiv content>.
const META_CHARSET = /<meta[^>]*?charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i;

function sniffCharset(first: Uint8Array): string | null {
  const head = Buffer.from(first.buffer, first.byteOffset, Math.min(first.length, 1024)).toString('latin1');
  return META_CHARSET.exec(head)?.[1] ?? null;
}

/** A decoder for the charset (UTF-8 when none is named, the name is unknown, or it says UTF-16: a page
 * whose bytes were read as ASCII to find the name cannot be UTF-16, as the HTML standard reasons). */
function decoderFor(charset: string | null): TextDecoder {
  if (charset === null || /^utf-?(8|16)/i.test(charset)) return new TextDecoder('utf-8');
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder('utf-8');
  }
}

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text ?? null;
}
