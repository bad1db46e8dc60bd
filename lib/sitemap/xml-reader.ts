// Streaming reader for XML sitemaps (urlset, sitemapindex) and RSS/Atom feeds used as sitemaps.
// One saxes parser, a flat state machine and no per-element allocations of our own: this runs
// once per element of files with millions of URLs. Elements match by local name, so prefixed,
// legacy-namespaced and namespace-less sitemaps all read the same; anything odd becomes a warning.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { type ParseStats, type SitemapEntry, type SitemapKind, SitemapParseError } from './types';
import { isAbsoluteHttpUrl } from './utils';
import { WarningTally } from './warning-tally';
import {
  ATOM_PUBLISHED,
  ATOM_UPDATED,
  CHANGEFREQ,
  EntryDraft,
  LASTMOD,
  LOC,
  NONE,
  PRIORITY,
  RSS_GUID,
  RSS_LINK,
  RSS_PUBDATE,
} from './xml-entry';
import {
  classifyRoot,
  doctypeError,
  HTML_MESSAGE,
  looksLikeHtml,
  namespaceWarning,
  SITEMAP_NS,
} from './xml-root';

/** Undeclared prefixes that real sitemaps use anyway, mapped to what they obviously mean. */
const CONVENTIONAL_PREFIXES: Record<string, string> = {
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  xhtml: 'http://www.w3.org/1999/xhtml',
  mobile: 'http://www.google.com/schemas/sitemap-mobile/1.0',
};

export class XmlSitemapReader {
  batch: SitemapEntry[] = [];
  private readonly parser: SaxesParser<{ xmlns: true; position: true }>;
  private readonly stats: ParseStats;
  private readonly lineOffset: number;
  private readonly tally: WarningTally;
  private head = '';
  private closing = false;
  private rootClosed = false;
  private kind: SitemapKind | null = null;
  private rootUri = '';
  private depth = 0;
  private position = 0;
  // The entry element being read (0 = none).
  private entryDepth = 0;
  private readonly draft = new EntryDraft();
  // The child element whose text is being collected.
  private field = NONE;
  private fieldDepth = 0;
  private text = '';

  constructor(stats: ParseStats, lineOffset: number) {
    this.stats = stats;
    this.lineOffset = lineOffset;
    this.tally = new WarningTally(stats.warnings);
    this.parser = new SaxesParser({
      xmlns: true,
      position: true,
      resolvePrefix: (prefix: string) => this.resolveUnboundPrefix(prefix),
    });
    this.parser.on('opentag', (tag) => this.onOpenTag(tag));
    this.parser.on('closetag', () => this.onCloseTag());
    this.parser.on('text', (text) => this.onText(text));
    this.parser.on('cdata', (text) => this.onText(text));
    this.parser.on('doctype', (doctype) => this.onDoctype(doctype));
    this.parser.on('error', (err) => this.onError(err));
  }

  write(text: string): void {
    if (this.head.length < 1024) this.head += text.slice(0, 1024);
    this.parser.write(text);
  }

  close(): void {
    this.closing = true;
    this.parser.close();
    if (this.kind === null)
      throw new SitemapParseError('not_a_sitemap', 'the XML document has no root element');
  }

  /** Adds the per-file summary warnings; call once, also after an error. */
  flushWarnings(): void {
    this.tally.flush();
  }

  private onOpenTag(tag: SaxesTagNS): void {
    const depth = ++this.depth;
    if (this.rootClosed) return;
    if (this.entryDepth !== 0) {
      if (depth === this.entryDepth + 1) this.openEntryChild(tag, depth);
      return;
    }
    if (depth === 1) {
      this.openRoot(tag);
      return;
    }
    const local = tag.local;
    if (this.kind === 'urlset' || this.kind === 'index') {
      if (depth !== 2) return;
      if (local === 'url') this.openEntry(true, depth);
      else if (local === 'sitemap') this.openEntry(false, depth);
      else if (this.isSitemapNamespace(tag.uri)) this.noteUnknown(tag);
    } else if (this.kind === 'rss') {
      if (local === 'item') this.openEntry(true, depth);
    } else if (depth === 2 && local === 'entry') {
      this.openEntry(true, depth);
    }
  }

  private onCloseTag(): void {
    const depth = this.depth--;
    if (depth === 1) this.rootClosed = true;
    if (this.field !== NONE) {
      if (depth === this.fieldDepth) this.closeField();
    } else if (depth === this.entryDepth) {
      this.closeEntry();
    }
  }

  private onText(text: string): void {
    if (this.field !== NONE) this.text += text;
    else if (this.entryDepth !== 0 && !this.draft.hasChild && this.depth === this.entryDepth) {
      this.draft.bare += text;
    }
  }

  private openRoot(tag: SaxesTagNS): void {
    const kind = classifyRoot(tag, this.where());
    this.kind = kind;
    this.stats.kind = kind;
    this.rootUri = tag.uri;
    if (kind !== 'urlset' && kind !== 'index') return;
    const warning = namespaceWarning(tag, this.where().line);
    if (warning) this.stats.warnings.push(warning);
  }

  private openEntry(isUrl: boolean, depth: number): void {
    if (isUrl ? this.kind === 'index' : this.kind === 'urlset') {
      this.tally.count('mixed_entries', this.where().line, (count, line) =>
        this.kind === 'index'
          ? `${count} <url> element(s) inside a sitemap index, first at line ${line}; read as page URLs`
          : `${count} <sitemap> element(s) inside a urlset, first at line ${line}; read as child sitemaps`,
      );
    }
    this.entryDepth = depth;
    this.position++;
    this.draft.start(isUrl, this.position, this.parser.line + this.lineOffset);
  }

  private openEntryChild(tag: SaxesTagNS, depth: number): void {
    const draft = this.draft;
    draft.hasChild = true;
    const local = tag.local;
    let field = NONE;
    if (this.kind === 'urlset' || this.kind === 'index') {
      if (this.isSitemapNamespace(tag.uri)) {
        if (local === 'loc') field = LOC;
        else if (local === 'lastmod') field = LASTMOD;
        else if (local === 'changefreq') field = CHANGEFREQ;
        else if (local === 'priority') field = PRIORITY;
        else if (!this.countExtension(tag)) this.noteUnknown(tag);
      } else {
        this.countExtension(tag);
      }
    } else if (this.kind === 'rss') {
      // atom:link and friends also have local name "link"; RSS's own elements have no namespace.
      if (tag.uri === '') {
        if (local === 'link') field = RSS_LINK;
        else if (local === 'guid') field = RSS_GUID;
        else if (local === 'pubDate') field = RSS_PUBDATE;
      }
    } else if (local === 'link') {
      const rel = tag.attributes.rel?.value.trim();
      const href = tag.attributes.href?.value.trim() ?? '';
      if (draft.link === '' && href !== '' && (rel === undefined || rel === '' || rel === 'alternate')) {
        draft.link = href;
      }
    } else if (local === 'updated' || local === 'modified') field = ATOM_UPDATED;
    else if (local === 'published' || local === 'issued') field = ATOM_PUBLISHED;

    if (field !== NONE) {
      this.field = field;
      this.fieldDepth = depth;
      this.text = '';
    }
  }

  /** Extensions count by local name whatever their namespace: prefixes are often misdeclared. */
  private countExtension(tag: SaxesTagNS): boolean {
    const local = tag.local;
    const draft = this.draft;
    if (local === 'image') draft.images++;
    else if (local === 'video') draft.videos++;
    else if (local === 'news') draft.news++;
    else if (local === 'link') {
      // hreflang alternates only: rel=alternate without hreflang is an app deep link, not a page.
      const attributes = tag.attributes;
      if (attributes.hreflang !== undefined && attributes.rel?.value.trim().toLowerCase() === 'alternate') {
        draft.alternates++;
      }
    } else return false;
    return true;
  }

  private closeField(): void {
    const field = this.field;
    this.field = NONE;
    this.draft.assign(field, this.text.trim());
    this.text = '';
  }

  private closeEntry(): void {
    this.entryDepth = 0;
    const draft = this.draft;
    const kind = this.kind as SitemapKind;
    let loc = draft.declaredLoc(kind);
    if (loc === '' && !draft.hasChild && (kind === 'urlset' || kind === 'index')) {
      // Policy: <sitemap>https://…</sitemap> without <loc> is taken when the text is a URL.
      const bare = draft.bare.trim();
      if (isAbsoluteHttpUrl(bare)) {
        loc = bare;
        this.tally.count(
          'bare_loc',
          draft.line,
          (count, line) =>
            `${count} entr${count === 1 ? 'y holds' : 'ies hold'} a bare URL without <loc>, first at line ${line}; the URL was used`,
        );
      }
    }
    if (loc === '') {
      this.tally.count(
        'missing_loc',
        draft.line,
        (count, line) =>
          `${count} entr${count === 1 ? 'y has' : 'ies have'} no <loc> (or an empty one) and ${count === 1 ? 'was' : 'were'} skipped, first at line ${line}`,
      );
      return;
    }
    this.batch.push(draft.toEntry(kind, loc));
  }

  private isSitemapNamespace(uri: string): boolean {
    return uri === this.rootUri || uri === '' || uri === SITEMAP_NS;
  }

  private noteUnknown(tag: SaxesTagNS): void {
    this.tally.once('unknown_element', tag.name, {
      code: 'unknown_element',
      message: `ignored unknown element <${tag.name.slice(0, 60)}>`,
      ...this.where(),
    });
  }

  private resolveUnboundPrefix(prefix: string): string | undefined {
    // saxes also asks for the default namespace ("") when none is declared: that one stays empty.
    if (prefix === '') return undefined;
    const uri = CONVENTIONAL_PREFIXES[prefix] ?? `urn:x-undeclared-prefix:${prefix}`;
    this.tally.once('unbound_prefix', prefix, {
      code: 'unbound_prefix',
      message: `the namespace prefix "${prefix.slice(0, 60)}" is used without being declared`,
      ...this.where(),
    });
    return uri;
  }

  private onDoctype(doctype: string): never {
    throw doctypeError(doctype, this.where());
  }

  private onError(err: Error): void {
    // Junk after </urlset> (a PHP notice, a stats comment gone wrong) cannot affect any entry.
    if (this.rootClosed) {
      this.tally.once('content_after_root', '', {
        code: 'content_after_root',
        message: 'content after the end of the root element was ignored',
        ...this.where(),
      });
      return;
    }
    if (this.kind === null && looksLikeHtml(this.head)) {
      throw new SitemapParseError('not_a_sitemap', HTML_MESSAGE);
    }
    const where = this.where();
    let detail = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    if (this.closing) detail = `unexpected end of file (${detail})`;
    throw new SitemapParseError(
      'xml_malformed',
      `line ${where.line}, column ${where.column}: ${detail}`,
      where,
    );
  }

  private where(): { line: number; column: number } {
    return { line: this.parser.line + this.lineOffset, column: this.parser.column + 1 };
  }
}
