import { describe, expect, it } from 'vitest';
import { createPageReader, type PageSignals } from './page-reader';

const PAGE = 'https://example.com/dir/page.html';

/** Feeds the HTML in small pieces, as the network would, so tags and attributes cut across chunks count. */
function read(html: string, size = 5, pageUrl = PAGE): PageSignals {
  const reader = createPageReader(pageUrl);
  for (let i = 0; i < html.length; i += size) reader.write(html.slice(i, i + size));
  return reader.end();
}

describe('createPageReader links', () => {
  it('collects a, area and link rel=next/prev in document order, absolute, each once, fragments dropped', () => {
    const { links } = read(`<!doctype html><html><head>
      <link rel="stylesheet" href="/style.css"><link rel="prev" href="?page=1"><link rel="Next" href="?page=3">
      </head><body>
      <a href="other.html#top">Other</a>
      <a href="https://example.com/dir/other.html">again</a>
      <map><area href="/area" alt=""></map>
      <a href="//cdn.example.org/x">protocol-relative</a>
      <a href="HTTP://Example.COM/Up?a=1&amp;b=2">entities decoded</a>
      <a name="anchor-only">no href</a>
      </body></html>`);
    expect(links).toEqual([
      'https://example.com/dir/page.html?page=1',
      'https://example.com/dir/page.html?page=3',
      'https://example.com/dir/other.html',
      'https://example.com/area',
      'https://cdn.example.org/x',
      'http://example.com/Up?a=1&b=2',
    ]);
  });

  it('skips javascript:, mailto:, tel:, data:, other schemes and in-page anchors', () => {
    const { links } = read(`<a href="javascript:void(0)">j</a><a href=" JavaScript:alert(1)">J</a>
      <a href="java&#10;script:alert(1)">split</a><a href="mailto:a@b.c">m</a><a href="tel:+123">t</a>
      <a href="data:text/html,hi">d</a><a href="ftp://example.com/f">f</a><a href="#top">#</a>
      <a href="">empty</a><a href="http://[bad">broken</a><a href="/kept">kept</a>`);
    expect(links).toEqual(['https://example.com/kept']);
  });

  it('resolves against <base href> in head, even for links met before it, but ignores a base in body', () => {
    expect(
      read('<head><link rel=next href="n"><base href="https://cdn.example/x/"></head><a href="y">y</a>')
        .links,
    ).toEqual(['https://cdn.example/x/n', 'https://cdn.example/x/y']);
    expect(read('<body><base href="https://cdn.example/x/"><a href="y">y</a></body>').links).toEqual([
      'https://example.com/dir/y',
    ]);
    // A base that is no http(s) URL leaves the page's own URL as the base.
    expect(read('<head><base href="javascript:x"></head><a href="y">y</a>').links).toEqual([
      'https://example.com/dir/y',
    ]);
  });

  it('leaves rel=nofollow links out and counts the URLs linked only that way', () => {
    const signals = read(`<a href="/a" rel="nofollow">a</a><a href="/b" rel="external NOFOLLOW">b</a>
      <a href="/b">b followed elsewhere</a><area href="/c" rel=nofollow><a href="/a" rel=nofollow>a again</a>`);
    expect(signals.links).toEqual(['https://example.com/b']);
    expect(signals.nofollowLinks).toBe(2);
  });

  it('reads broken markup the way a browser forgives it', () => {
    const { links, canonical } = read(`<html><head><link rel=canonical href=/canon>
      <body><p><a href=/unquoted>x<a href='/single'>y</p></div></span><a href="/after-stray-closers">z
      <table><tr><td><a href="/in-table">t</td></table><a href="/unclosed`);
    expect(canonical).toBe('https://example.com/canon');
    expect(links).toEqual([
      'https://example.com/unquoted',
      'https://example.com/single',
      'https://example.com/after-stray-closers',
      'https://example.com/in-table',
    ]);
  });

  it('keeps links inside noscript, comments and scripts out', () => {
    const { links } = read(`<noscript><a href="/no-js">n</a></noscript><!-- <a href="/commented">c</a> -->
      <script>document.write('<a href="/scripted">s</a>')</script><a href="/real">r</a>`);
    expect(links).toEqual(['https://example.com/no-js', 'https://example.com/real']);
  });
});

describe('createPageReader canonical and robots meta', () => {
  it('takes the first canonical in <head> and ignores one in the body', () => {
    expect(
      read('<head><link rel="canonical" href="../a?b=1"><link rel=canonical href=/second></head>').canonical,
    ).toBe('https://example.com/a?b=1');
    expect(
      read('<head><title>t</title></head><body><link rel="canonical" href="/body"></body>').canonical,
    ).toBeNull();
    // Text-level content (here a div) ends the head even without <body>, as a browser's parser decides.
    expect(read('<title>t</title><div>x</div><link rel="canonical" href="/late">').canonical).toBeNull();
    expect(read('<head><link rel="canonical" href="mailto:x@y.z"></head>').canonical).toBeNull();
  });

  it('reads noindex and nofollow from robots and googlebot metas, not other bots', () => {
    expect(read('<meta name="Robots" content="NOINDEX, follow">')).toMatchObject({
      noindexSources: ['meta:robots'],
      nofollow: false,
    });
    expect(read('<meta name="googlebot" content="none">')).toMatchObject({
      noindexSources: ['meta:googlebot'],
      nofollow: true,
    });
    expect(read('<meta name="robots" content="index,nofollow"><a href="/x">x</a>')).toMatchObject({
      noindexSources: [],
      nofollow: true,
      // The page's links are still reported: whether to follow them is the crawler's decision.
      links: ['https://example.com/x'],
    });
    expect(read('<meta name="bingbot" content="noindex, nofollow">')).toMatchObject({
      noindexSources: [],
      nofollow: false,
    });
  });
});
