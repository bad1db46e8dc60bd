// Reads the Sitemap directives of a robots.txt file (the only part of robots.txt ingestion needs).
// Policy: directive keys are matched leniently (any case, `site-map`, space before the colon),
// as Google does; bare URL lines without a directive are NOT taken (RFC 9309), only noted.

import type { SitemapWarning } from './types';
import { isAbsoluteHttpUrl } from './utils';

export interface RobotsSitemaps {
  /** Absolute http(s) URLs, de-duplicated, in file order. */
  sitemaps: string[];
  notes: SitemapWarning[];
}

function decodeRobots(body: Uint8Array): string {
  const [b0, b1, b2] = body;
  if (b0 === 0xff && b1 === 0xfe) return new TextDecoder('utf-16le').decode(body);
  if (b0 === 0xfe && b1 === 0xff) return new TextDecoder('utf-16be').decode(body);
  // Not fatal: one stray byte elsewhere in robots.txt must not hide its Sitemap lines.
  const start = b0 === 0xef && b1 === 0xbb && b2 === 0xbf ? 3 : 0;
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(start));
}

function isSitemapKey(key: string): boolean {
  return key.replace(/[\s_-]/g, '').toLowerCase() === 'sitemap';
}

function shorten(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

export function parseRobotsSitemaps(body: Uint8Array, robotsUrl: string): RobotsSitemaps {
  const sitemaps: string[] = [];
  const notes: SitemapWarning[] = [];
  const seen = new Set<string>();
  const lines = decodeRobots(body).split(/\r\n|\r|\n/);

  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const raw = lines[index] ?? '';
    const hash = raw.indexOf('#');
    const content = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (content === '') continue;
    const colon = content.indexOf(':');
    const key = colon > 0 ? content.slice(0, colon) : '';
    if (!isSitemapKey(key)) {
      if (isAbsoluteHttpUrl(content)) {
        notes.push({
          code: 'bare_url_line',
          message: `line ${line} holds a URL without a "Sitemap:" directive and was not used: ${shorten(content)}`,
          line,
        });
      }
      continue;
    }

    const value = content.slice(colon + 1).trim();
    let resolved: string | null = null;
    let isRelative = false;
    // Inner whitespace means two values or a comment without '#': too ambiguous to guess.
    if (value === '' || /\s/.test(value)) {
      resolved = null;
    } else if (isAbsoluteHttpUrl(value)) {
      resolved = new URL(value).href;
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) {
      try {
        const url = new URL(value, robotsUrl);
        if (url.protocol === 'http:' || url.protocol === 'https:') {
          resolved = url.href;
          isRelative = true;
        }
      } catch {
        resolved = null;
      }
    }
    if (resolved === null) {
      notes.push({
        code: 'invalid_sitemap',
        message: `line ${line}: "${shorten(value)}" is not a usable sitemap URL`,
        line,
      });
      continue;
    }
    if (isRelative) {
      notes.push({
        code: 'relative_sitemap',
        message: `line ${line}: the relative sitemap URL "${shorten(value)}" was resolved to ${resolved}; robots.txt should use absolute URLs`,
        line,
      });
    }
    if (seen.has(resolved)) {
      notes.push({ code: 'duplicate_sitemap', message: `line ${line}: ${resolved} is listed again`, line });
      continue;
    }
    seen.add(resolved);
    sitemaps.push(resolved);
  }
  return { sitemaps, notes };
}
