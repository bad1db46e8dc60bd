// Streaming reader for plain-text sitemaps: one absolute URL per line (sitemaps.org "Text file").
// Lines are cut with indexOf over each decoded chunk; only a partial last line is carried over.

import { EntryErrors } from './entry-errors';
import { TRAILING_SPACE_SLACK } from './loc-checks';
import { type SitemapEntry, SitemapParseError, type SitemapWarning } from './types';
import { isAbsoluteHttpUrl } from './utils';
import { WarningTally } from './warning-tally';

/** Characters of an over-long line kept, for the example in the file's warnings. */
const KEPT_PREFIX_CHARS = 200;

export class TextSitemapReader {
  batch: SitemapEntry[] = [];
  private readonly tally: WarningTally;
  private readonly refused: EntryErrors;
  /** Lines longer than this are never buffered whole: a URL line over the loc limit is refused. */
  private readonly maxLineChars: number;
  private carry = '';
  private carryTooLong = false;
  private pendingCr = false;
  private lineNumber: number;
  private position = 0;

  /** `firstLine` is the line number of the first character written. */
  constructor(
    warnings: SitemapWarning[],
    firstLine: number,
    private readonly maxLocChars: number,
  ) {
    this.tally = new WarningTally(warnings);
    this.refused = new EntryErrors(warnings);
    this.maxLineChars = maxLocChars + TRAILING_SPACE_SLACK;
    this.lineNumber = firstLine - 1;
  }

  write(chunk: string): void {
    // CRLF and lone CR (classic Mac) both end a line; a CR at a chunk end may be half of a CRLF.
    let text = this.pendingCr ? `\r${chunk}` : chunk;
    this.pendingCr = text.endsWith('\r');
    if (this.pendingCr) text = text.slice(0, -1);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    let start = 0;
    let end = text.indexOf('\n');
    if (this.carry !== '' || this.carryTooLong) {
      if (end === -1) {
        this.extendCarry(text);
        return;
      }
      this.extendCarry(text.slice(0, end));
      this.takeLine(this.carry);
      this.carry = '';
      this.carryTooLong = false;
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    while (end !== -1) {
      this.takeLine(text.slice(start, end));
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    if (start < text.length) this.extendCarry(text.slice(start));
  }

  close(): void {
    if (this.carry !== '' || this.carryTooLong || this.pendingCr) this.takeLine(this.carry);
    this.carry = '';
    if (this.position === 0) throw notASitemap();
  }

  flushWarnings(): void {
    this.tally.flush();
    this.refused.flush();
  }

  private extendCarry(text: string): void {
    if (this.carryTooLong) return;
    if (this.carry.length + text.length > this.maxLineChars) {
      this.carry = (this.carry + text.slice(0, KEPT_PREFIX_CHARS)).slice(0, KEPT_PREFIX_CHARS);
      this.carryTooLong = true;
    } else {
      this.carry += text;
    }
  }

  private takeLine(raw: string): void {
    this.lineNumber++;
    const tooLong = this.carryTooLong || raw.length > this.maxLineChars;
    const value = tooLong ? raw.slice(0, KEPT_PREFIX_CHARS).trimStart() : raw.trim();
    if (value === '') return;
    if (tooLong || value.length > this.maxLocChars) {
      // Refused with a prefix when it starts like a URL; any other long line is just not a URL.
      if (/^https?:\/\//i.test(value)) this.refuseTooLong(value);
      else this.noteNonUrl();
      return;
    }
    if (!isAbsoluteHttpUrl(value)) {
      this.noteNonUrl();
      return;
    }
    this.position++;
    this.batch.push({
      type: 'url',
      loc: value,
      lastmodRaw: null,
      lastmod: null,
      changefreq: null,
      priority: null,
      images: 0,
      videos: 0,
      news: 0,
      alternates: 0,
      position: this.position,
      line: this.lineNumber,
    });
  }

  private refuseTooLong(value: string): void {
    this.position++;
    const limit = this.maxLocChars.toLocaleString('en-US');
    this.refused.add('loc_too_long', this.position, this.lineNumber, value, (count, first) => {
      const lines = `${count} line${count === 1 ? '' : 's'}`;
      return `${lines} with a URL longer than ${limit} characters (SITEMAP_MAX_LOC_CHARS) ${count === 1 ? 'was' : 'were'} refused, first at line ${first.line}: "${first.prefix}"`;
    });
  }

  private noteNonUrl(): void {
    this.tally.count(
      'non_url_lines',
      this.lineNumber,
      (count, line) =>
        `${count} line${count === 1 ? ' is' : 's are'} not an absolute http(s) URL and ${count === 1 ? 'was' : 'were'} skipped, first at line ${line}`,
    );
  }
}

function notASitemap(): SitemapParseError {
  return new SitemapParseError(
    'not_a_sitemap',
    'the file is neither XML nor a list of URLs (no line is a URL)',
  );
}
