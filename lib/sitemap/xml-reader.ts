// Streaming reader for XML sitemaps (urlset, sitemapindex) and RSS/Atom feeds used as sitemaps.
// One saxes parser, a flat state machine and no per-element allocations of our own: this runs
// once per element of files with millions of URLs. Elements match by local name, so prefixed,
// legacy-namespaced and namespace-less sitemaps all read the same; anything odd becomes a warning.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { EntryErrors } from './entry-errors';
import { locProblem, type ReaderLimits, TRAILING_SPACE_SLACK } from './loc-checks';
import { bufferKind, buffers, isInEntity } from './saxes-buffers';
import { type ParseStats, type SitemapEntry, type SitemapKind, SitemapParseError } from './types';
import { isAbsoluteHttpUrl } from './utils';
import { WarningTally } from './warning-tally';
import {
  ATOM_PUBLISHED,
  ATOM_UPDATED,
  CHANGEFREQ,
  EntryDraft,
  EXTRA_FIELD_MAX_CHARS,
  isUrlField,
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

/** Markup (a name, an attribute value) longer than this fails the file: no sitemap needs one. */
export const MAX_MARKUP_CHARS = 64 * 1024;
/** Input is handed to saxes in slices of this size, so its buffers are checked at least this often. */
const WRITE_SLICE_CHARS = 64 * 1024;

/** A <url> whose serialised children pass this many characters keeps only its loc, lastmod, changefreq
 * and priority (with a warning): no real extension block comes near it. */
export const MAX_EXTRA_CHARS = 1024 * 1024;

const escapeXmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeXmlAttribute = (text: string) =>
  escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');

/** A start tag's name and attributes as read (namespace declarations included), without its brackets. */
export function startTagText(tag: SaxesTagNS): string {
  let text = tag.name;
  for (const key in tag.attributes) {
    const attribute = tag.attributes[key] as { name: string; value: string };
    text += ` ${attribute.name}="${escapeXmlAttribute(attribute.value)}"`;
  }
  return text;
}

function hasAttributes(tag: SaxesTagNS): boolean {
  for (const _ in tag.attributes) return true;
  return false;
}

const SIMPLE_FIELD_NAMES = ['', 'loc', 'lastmod', 'changefreq', 'priority'];

/** Text after a `&` that no entity or character reference can be: the `&` was meant literally. */
function isStrayReference(entity: string): boolean {
  return !/^#?[\p{L}\p{N}_:.\-·]*$/u.test(entity);
}

export class XmlSitemapReader {
  batch: SitemapEntry[] = [];
  private readonly parser: SaxesParser<{ xmlns: true; position: true }>;
  private readonly stats: ParseStats;
  private readonly lineOffset: number;
  private readonly tally: WarningTally;
  private readonly refused: EntryErrors;
  private readonly limits: ReaderLimits;
  /** Raw characters kept of a URL field: the limit plus trailing whitespace of pretty-printed files. */
  private readonly urlFieldCap: number;
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
  private fieldCap = 0;
  /** The field's text passed its cap: nothing more is appended, the value is refused. */
  private fieldOverflow = false;
  private text = '';
  private rootPrefix = '';
  /** The open <url>'s children serialised so far, once it holds more than its plain fields (else null). */
  private extra: string | null = null;
  private extraOverflow = false;
  /** The last plain field (LOC…PRIORITY) of the open <url>, and their trimmed values by field. */
  private lastPlain = NONE;
  /** Bit 1 << field of each plain field read. */
  private plainMask = 0;
  private readonly plainValues: string[] = ['', '', '', '', ''];

  constructor(stats: ParseStats, lineOffset: number, limits: ReaderLimits) {
    this.stats = stats;
    this.lineOffset = lineOffset;
    this.limits = limits;
    this.urlFieldCap = limits.maxLocChars + TRAILING_SPACE_SLACK;
    this.tally = new WarningTally(stats.warnings);
    this.refused = new EntryErrors(stats.warnings);
    this.parser = new SaxesParser({
      xmlns: true,
      position: true,
      resolvePrefix: (prefix: string) => this.resolveUnboundPrefix(prefix),
    });
    this.parser.on('opentag', (tag) => this.onOpenTag(tag));
    this.parser.on('closetag', (tag) => this.onCloseTag(tag));
    this.parser.on('text', (text) => this.onText(text));
    this.parser.on('cdata', (text) => this.onText(text));
    this.parser.on('doctype', (doctype) => this.onDoctype(doctype));
    this.parser.on('error', (err) => this.onError(err));
  }

  write(text: string): void {
    if (this.head.length < 1024) this.head += text.slice(0, 1024);
    if (text.length <= WRITE_SLICE_CHARS) {
      this.parser.write(text);
      this.capBuffers();
      return;
    }
    for (let offset = 0; offset < text.length; offset += WRITE_SLICE_CHARS) {
      this.parser.write(text.slice(offset, offset + WRITE_SLICE_CHARS));
      this.capBuffers();
    }
  }

  /** Characters held for the token being read, ours and saxes'; bounded by the caps (tests read it). */
  bufferedChars(): number {
    const b = buffers(this.parser);
    return b.text.length + b.name.length + b.entity.length + this.text.length + this.draft.bare.length;
  }

  /**
   * Keeps saxes from holding more than a cap of one token: pending character data is handed to
   * onText early (which keeps at most its field's cap) and dropped from saxes' buffer; comments and
   * PIs, which nothing reads, are dropped; oversized markup fails the file.
   */
  private capBuffers(): void {
    const b = buffers(this.parser);
    if (b.text.length <= this.urlFieldCap && b.name.length <= MAX_MARKUP_CHARS && b.entity.length <= 1024) {
      return;
    }
    const kind = bufferKind(b.state);
    if (kind === 'character-data' && b.name.length <= MAX_MARKUP_CHARS && b.entity.length <= 1024) {
      this.onText(b.text);
      b.text = '';
    } else if (kind === 'unread' && b.name.length <= MAX_MARKUP_CHARS) {
      b.text = '';
    } else if (b.entity.length > 1024 && isStrayReference(b.entity)) {
      throw this.strayAmpersandError(b.entity);
    } else if (
      b.text.length > MAX_MARKUP_CHARS ||
      b.name.length > MAX_MARKUP_CHARS ||
      b.entity.length > 1024
    ) {
      const where = this.where();
      throw new SitemapParseError(
        'xml_token_too_long',
        `line ${where.line}, column ${where.column}: an XML name, attribute value or entity reference is longer than ${MAX_MARKUP_CHARS.toLocaleString('en-US')} characters`,
        where,
      );
    }
  }

  /** saxes resolves each element's namespace by walking every open element, so 100,000 nested elements
   * cost 110 s (quadratic); stopping at the limit bounds that walk. (An `opentagstart` handler would
   * stop one element sooner, but registering it made saxes' whole parse 3-4 times slower.) */
  private failTooDeep(): never {
    const where = this.where();
    throw new SitemapParseError(
      'xml_too_deep',
      `line ${where.line}, column ${where.column}: XML elements are nested deeper than ${this.limits.maxDepth} levels`,
      where,
    );
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
    this.refused.flush();
  }

  private onOpenTag(tag: SaxesTagNS): void {
    const depth = ++this.depth;
    if (depth > this.limits.maxDepth) this.failTooDeep();
    if (this.rootClosed) return;
    if (this.entryDepth !== 0) {
      if (depth === this.entryDepth + 1) this.openEntryChild(tag, depth);
      else if (this.extra !== null) this.captureOpen(tag);
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

  private onCloseTag(tag: SaxesTagNS): void {
    const depth = this.depth--;
    if (depth === 1) this.rootClosed = true;
    if (this.extra !== null && depth > this.entryDepth && this.entryDepth !== 0) {
      this.capture(`</${tag.name}>`);
    }
    if (this.field !== NONE) {
      if (depth === this.fieldDepth) this.closeField();
    } else if (depth === this.entryDepth) {
      this.closeEntry();
    }
  }

  private onText(text: string): void {
    // Blank text between elements is layout; any other text inside an extension is kept as read.
    if (this.extra !== null && this.depth > this.entryDepth && this.entryDepth !== 0 && text.trim() !== '') {
      this.capture(escapeXmlText(text));
    }
    if (this.field !== NONE) {
      if (this.fieldOverflow) return;
      // Leading whitespace is dropped as it comes, so only the value and its trailing space count.
      const piece = this.text === '' ? text.trimStart() : text;
      if (this.text.length + piece.length <= this.fieldCap) this.text += piece;
      else this.overflowField(piece);
    } else if (this.entryDepth !== 0 && !this.draft.hasChild && this.depth === this.entryDepth) {
      const draft = this.draft;
      if (draft.bareTooLong) return;
      const piece = draft.bare === '' ? text.trimStart() : text;
      if (draft.bare.length + piece.length <= this.urlFieldCap) draft.bare += piece;
      else {
        // Only a prefix is kept, for the example in the file's warnings.
        draft.bare = (draft.bare + piece.slice(0, 200)).slice(0, 200);
        draft.bareTooLong = true;
      }
    }
  }

  /** Stops collecting the field: a URL field keeps a prefix for the example, others keep nothing. */
  private overflowField(piece: string): void {
    this.fieldOverflow = true;
    this.text = isUrlField(this.field) ? (this.text + piece.slice(0, 200)).slice(0, 200) : '';
  }

  private openRoot(tag: SaxesTagNS): void {
    const kind = classifyRoot(tag, this.where());
    this.kind = kind;
    this.stats.kind = kind;
    this.rootUri = tag.uri;
    if (kind !== 'urlset' && kind !== 'index') return;
    this.rootPrefix = tag.prefix;
    this.stats.rootTag = startTagText(tag);
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
    this.fieldOverflow = false;
    this.extra = null;
    this.extraOverflow = false;
    this.lastPlain = NONE;
    this.plainMask = 0;
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
        if (href.length > this.limits.maxLocChars) draft.locTooLong = href.slice(0, 200);
        else draft.link = href;
      }
    } else if (local === 'updated' || local === 'modified') field = ATOM_UPDATED;
    else if (local === 'published' || local === 'issued') field = ATOM_PUBLISHED;

    if (draft.isUrl && (this.kind === 'urlset' || this.kind === 'index')) this.keepChild(tag, field);
    if (field !== NONE) {
      this.field = field;
      this.fieldDepth = depth;
      this.fieldCap = isUrlField(field) ? this.urlFieldCap : EXTRA_FIELD_MAX_CHARS;
      this.fieldOverflow = false;
      this.text = '';
    }
  }

  /**
   * Keeps what the columns cannot say: a <url> stays plain while its children are loc, lastmod, changefreq
   * and priority, once each, in that order, with the root's prefix and no attributes (a million plain URLs
   * cost one comparison each); its first other child starts the serialisation, from the plain fields read
   * so far, and every later child is serialised as read.
   */
  private keepChild(tag: SaxesTagNS, field: number): void {
    if (this.extra === null) {
      if (
        field >= LOC &&
        field <= PRIORITY &&
        field > this.lastPlain &&
        tag.prefix === this.rootPrefix &&
        !hasAttributes(tag)
      ) {
        this.lastPlain = field;
        return;
      }
      this.beginExtra();
    }
    this.captureOpen(tag);
  }

  /** Starts the open <url>'s serialisation with the plain fields read so far. */
  private beginExtra(): void {
    let text = '';
    const prefix = this.rootPrefix === '' ? '' : `${this.rootPrefix}:`;
    for (let field = LOC; field <= this.lastPlain; field++) {
      if ((this.plainMask & (1 << field)) === 0) continue;
      const value = this.plainValues[field] as string;
      const name = `${prefix}${SIMPLE_FIELD_NAMES[field]}`;
      text += `<${name}>${escapeXmlText(value)}</${name}>`;
    }
    this.extra = text;
  }

  /** A plain field's value: an empty one, or a priority its number would not write back the same, is
   * kept as read by serialising the <url> from here on. */
  private notePlain(field: number, value: string): void {
    this.plainValues[field] = value;
    this.plainMask |= 1 << field;
    if (value === '' || (field === PRIORITY && String(Number(value)) !== value)) this.beginExtra();
  }

  private captureOpen(tag: SaxesTagNS): void {
    this.capture(`<${startTagText(tag)}>`);
  }

  private capture(text: string): void {
    if (this.extraOverflow) return;
    const extra = (this.extra as string) + text;
    if (extra.length > MAX_EXTRA_CHARS) {
      this.extraOverflow = true;
      this.extra = '';
    } else this.extra = extra;
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
    const value = this.text.trim();
    this.text = '';
    if (this.extra === null && field === this.lastPlain && field !== NONE) this.notePlain(field, value);
    if (isUrlField(field) && (this.fieldOverflow || value.length > this.limits.maxLocChars)) {
      this.draft.locTooLong ??= value.slice(0, 200);
    } else if (this.fieldOverflow) {
      this.tally.count(
        'field_too_long',
        this.where().line,
        (count, line) =>
          `${count} value${count === 1 ? '' : 's'} of <lastmod>, <changefreq>, <priority> or a feed date longer than ${EXTRA_FIELD_MAX_CHARS} characters ${count === 1 ? 'was' : 'were'} ignored, first at line ${line}`,
      );
    } else {
      this.draft.assign(field, value);
    }
    this.fieldOverflow = false;
  }

  private closeEntry(): void {
    this.entryDepth = 0;
    const draft = this.draft;
    if (this.extraOverflow) {
      this.extra = null;
      this.tally.count(
        'extensions_too_long',
        draft.line,
        (count, line) =>
          `${count} <url> element${count === 1 ? '' : 's'} held more than ${MAX_EXTRA_CHARS.toLocaleString('en-US')} characters of extensions; only loc, lastmod, changefreq and priority were kept, first at line ${line}`,
      );
    }
    const kind = this.kind as SitemapKind;
    if (draft.locTooLong !== null || (draft.bareTooLong && !draft.hasChild)) {
      this.refuse('loc_too_long', draft.locTooLong ?? draft.bare);
      return;
    }
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
    const problem = locProblem(loc);
    if (problem !== null) {
      this.refuse(problem, loc);
      return;
    }
    this.batch.push(draft.toEntry(kind, loc, this.extra));
  }

  /** Counts a refused entry in the file's warnings, with a bounded prefix of its value. */
  private refuse(code: 'loc_too_long' | 'non_http_loc', value: string): void {
    const limit = this.limits.maxLocChars.toLocaleString('en-US');
    this.refused.add(code, this.draft.position, this.draft.line, value, (count, first) => {
      const entries = `${count} entr${count === 1 ? 'y' : 'ies'}`;
      const what =
        code === 'loc_too_long'
          ? `a location longer than ${limit} characters (SITEMAP_MAX_LOC_CHARS)`
          : 'a location that is not an http(s) URL (javascript:, data:, mailto:, …)';
      return `${entries} with ${what} ${count === 1 ? 'was' : 'were'} refused, first at line ${first.line} (entry ${first.position}): "${first.prefix}"`;
    });
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
    const stray = this.strayAmpersandOf(err);
    if (stray !== null) throw stray;
    const where = this.where();
    let detail = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    if (this.closing) detail = `unexpected end of file (${detail})`;
    throw new SitemapParseError(
      'xml_malformed',
      `line ${where.line}, column ${where.column}: ${detail}`,
      where,
    );
  }

  /**
   * saxes reads everything after a bare `&` as an entity name up to the next `;`, so an unescaped `&`
   * in line 9 used to be reported where that read ended (the end of the file, a later `&amp;`, or the
   * token cap). The text read since the `&` tells where it was: the error names that line instead.
   * Null when the error is not about an entity reference that holds characters no name can have.
   */
  private strayAmpersandOf(err: Error): SitemapParseError | null {
    const b = buffers(this.parser);
    if (isInEntity(b.state)) return isStrayReference(b.entity) ? this.strayAmpersandError(b.entity) : null;
    if (!err.message.includes('disallowed character in entity name')) return null;
    // The reference ended at the `;` just read (chunk[prevI]). saxes keeps the part read in earlier
    // chunks in `entity`; one begun in this chunk starts at the first `&` after the previous `;`.
    const { chunk, prevI } = b;
    if (b.entity !== '') return this.strayAmpersandError(b.entity + chunk.slice(0, prevI), 1);
    const ampersand = chunk.indexOf('&', chunk.lastIndexOf(';', prevI - 1) + 1);
    if (ampersand === -1 || ampersand >= prevI) return null;
    const lineStart = Math.max(chunk.lastIndexOf('\n', ampersand), chunk.lastIndexOf('\r', ampersand));
    const column = lineStart === -1 ? undefined : ampersand - lineStart;
    return this.strayAmpersandError(chunk.slice(ampersand + 1, prevI), 1, column);
  }

  /**
   * `since`: the text saxes read after the `&`; `after`: characters read after it (the `;`);
   * `column`: the `&`'s column when known otherwise (its line starts in the chunk).
   */
  private strayAmpersandError(since: string, after = 0, column?: number): SitemapParseError {
    const here = this.where();
    const breaks = since.split(/\r\n|\r|\n/).length - 1;
    const line = here.line - breaks;
    const at = column ?? (breaks === 0 ? here.column - since.length - after - 1 : undefined);
    return new SitemapParseError(
      'xml_malformed',
      `line ${line}${at === undefined ? '' : `, column ${at}`}: an unescaped "&" (write it as &amp;)`,
      at === undefined ? { line } : { line, column: at },
    );
  }

  private where(): { line: number; column: number } {
    return { line: this.parser.line + this.lineOffset, column: this.parser.column + 1 };
  }
}
