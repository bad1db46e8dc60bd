// Decisions about an XML document as a whole: which kind of sitemap its root element makes it,
// whether its namespace deserves a warning, and how to recognise an HTML page served instead.

import type { SaxesTagNS } from 'saxes';
import { type SitemapKind, SitemapParseError, type SitemapWarning } from './types';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const HTML_MESSAGE = 'an HTML page was served where a sitemap was expected';

export function looksLikeHtml(head: string): boolean {
  const lower = head.slice(0, 1024).toLowerCase();
  return lower.includes('<!doctype html') || lower.includes('<html');
}

/** The sitemap kind of a root element; throws 'not_a_sitemap' for anything else. */
export function classifyRoot(tag: SaxesTagNS, where: { line: number; column: number }): SitemapKind {
  const local = tag.local;
  if (local === 'urlset') return 'urlset';
  if (local === 'sitemapindex') return 'index';
  if (local === 'rss') return 'rss';
  if (local === 'feed') return 'atom';
  if (local.toLowerCase() === 'html') throw new SitemapParseError('not_a_sitemap', HTML_MESSAGE);
  throw new SitemapParseError(
    'not_a_sitemap',
    `the root element <${tag.name.slice(0, 60)}> is not a sitemap (expected <urlset>, <sitemapindex>, RSS or Atom)`,
    where,
  );
}

/** Missing or variant namespaces are read anyway (search engines do), but the user should know. */
export function namespaceWarning(tag: SaxesTagNS, line: number): SitemapWarning | null {
  if (tag.uri === SITEMAP_NS) return null;
  if (tag.uri === '') {
    return {
      code: 'missing_namespace',
      message: `<${tag.name}> declares no namespace; read as if it declared ${SITEMAP_NS}`,
      line,
    };
  }
  return {
    code: 'nonstandard_namespace',
    message: `<${tag.name}> uses the namespace "${tag.uri.slice(0, 200)}" instead of ${SITEMAP_NS}; read as a sitemap anyway`,
    line,
  };
}

/** A DOCTYPE is never processed: HTML pages are named as such, anything else is refused (XXE). */
export function doctypeError(doctype: string, where: { line: number; column: number }): SitemapParseError {
  if (/^\s*html\b/i.test(doctype)) return new SitemapParseError('not_a_sitemap', HTML_MESSAGE);
  return new SitemapParseError(
    'xml_doctype',
    'DOCTYPE/ENTITY declarations are not allowed (XXE protection)',
    where,
  );
}
