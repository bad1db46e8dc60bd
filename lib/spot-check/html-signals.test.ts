import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalFromLinkHeader, headerSaysNofollow, headerSaysNoindex } from './header-signals';
import { createHtmlSignalReader, type HtmlSignals } from './html-signals';

const PAGE = 'https://example.com/dir/page.html';

/** Feeds the HTML in small pieces, as the network would, so tags cut across chunks are covered. */
function read(html: string, size = 7): HtmlSignals {
  const reader = createHtmlSignalReader(PAGE);
  for (let i = 0; i < html.length; i += size) reader.write(html.slice(i, i + size));
  return reader.end();
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('createHtmlSignalReader', () => {
  it('hashes visible text only, whitespace collapsed, words kept whole across inline tags', () => {
    const signals = read(`<html><head><title>T</title><style>p{}</style></head><body>
      <script>alert(1)</script><noscript>enable js</noscript><template><p>later</p></template>
      <h1>Big   news</h1><p>foo<b>bar</b> &amp; more</p><div>next</div></body></html>`);
    expect(signals.textHash).toBe(sha('Big news foobar & more next'));
    expect(signals.title).toBe('T');
  });

  it('takes the first canonical in <head>, resolved against the page (or <base>), ignoring the body', () => {
    expect(
      read('<head><link rel="canonical" href="../a?b=1"><link rel=canonical href=/second></head>').canonical,
    ).toBe('https://example.com/a?b=1');
    expect(
      read('<head><base href="https://cdn.example/x/"><link rel="canonical" href="y"></head>').canonical,
    ).toBe('https://cdn.example/x/y');
    expect(
      read('<head><title>t</title></head><body><link rel="canonical" href="/body"></body>').canonical,
    ).toBeNull();
    // A body element without <body> ends the head, as a browser's parser decides.
    expect(read('<title>t</title><div>x</div><link rel="canonical" href="/late">').canonical).toBeNull();
    expect(
      read('<head><link rel="alternate canonical" href="javascript:alert(1)"></head>').canonical,
    ).toBeNull();
  });

  it('finds noindex and none in robots and googlebot metas, case-insensitively, not in other bots', () => {
    expect(read('<meta name="Robots" content="NOINDEX,follow">').noindexSources).toEqual(['meta:robots']);
    expect(read('<meta name="googlebot" content="none">').noindexSources).toEqual(['meta:googlebot']);
    expect(
      read('<meta name="bingbot" content="noindex"><meta name="robots" content="index">').noindexSources,
    ).toEqual([]);
  });

  it('keeps the first <title> outside SVG, collapsed and capped at 500 characters', () => {
    expect(read('<svg><title>icon</title></svg><title>\n Real &amp;  page </title>').title).toBe(
      'Real & page',
    );
    expect(read(`<title>${'x'.repeat(900)}</title>`).title).toHaveLength(500);
    expect(read('<p>no title</p>').title).toBeNull();
  });
});

describe('header signals', () => {
  it('reads X-Robots-Tag for all crawlers and Googlebot, scoped by a crawler name', () => {
    expect(headerSaysNoindex('noindex, nofollow')).toBe(true);
    expect(headerSaysNoindex('none')).toBe(true);
    expect(headerSaysNoindex('googlebot: noindex')).toBe(true);
    expect(headerSaysNoindex('otherbot: noindex, nofollow')).toBe(false);
    expect(headerSaysNoindex(['otherbot: nofollow', 'googlebot: none'])).toBe(true);
    expect(headerSaysNoindex('unavailable_after: 25 Jun 2030 15:00:00 PST, nofollow')).toBe(false);
    expect(headerSaysNoindex(undefined)).toBe(false);
  });

  it('reads nofollow from X-Robots-Tag the same way', () => {
    expect(headerSaysNofollow('noindex, nofollow')).toBe(true);
    expect(headerSaysNofollow('none')).toBe(true);
    expect(headerSaysNofollow('noindex')).toBe(false);
    expect(headerSaysNofollow('otherbot: nofollow')).toBe(false);
    expect(headerSaysNofollow(['otherbot: noindex', 'googlebot: nofollow'])).toBe(true);
  });

  it('takes the first rel=canonical Link target, resolved against the page', () => {
    const link = '<https://e.com/s.css>; rel="preload"; as=style, <../real>; title="a, b"; rel="canonical"';
    expect(canonicalFromLinkHeader(link, PAGE)).toBe('https://example.com/real');
    expect(canonicalFromLinkHeader('<https://e.com/x>; rel=canonical', PAGE)).toBe('https://e.com/x');
    expect(canonicalFromLinkHeader('<https://e.com/x>; rel=alternate', PAGE)).toBeNull();
    expect(canonicalFromLinkHeader(undefined, PAGE)).toBeNull();
  });
});
