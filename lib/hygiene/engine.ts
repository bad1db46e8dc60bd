// The lint engine: fed the files of a sitemap tree one after the other (their fetch metadata, the
// entries the product's own reader yields, then the reader's stats), it judges every rule that the
// files, their metadata and robots.txt allow. Its state stays bounded whatever the tree's size: counters
// and 20 examples per rule, 12-24 bytes per distinct URL for duplicates (url-table.ts), a capped map of
// sections for the trailing-slash rule, and one small lastmod tally for the file being read.

import { schemeOf } from '@/lib/sitemap/loc-checks';
import { PROTOCOL_MAX_BYTES, PROTOCOL_MAX_ENTRIES } from '@/lib/sitemap/parse';
import type { ParseStats, SitemapEntry, SitemapWarning } from '@/lib/sitemap/types';
import { LastmodTally } from './lastmod-tally';
import type { RuleCode } from './rules';
import { RuleTally } from './tally';
import type { ChildRef, FileMeta, LintExample, LintResult } from './types';
import { isPaginationUrl, isSearchUrl, slashForm } from './url-checks';
import { UrlTable } from './url-table';

/** The part of a robots-parser instance the engine uses. */
export interface RobotsRules {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}

export interface EngineOptions {
  robots?: RobotsRules | null;
  /** Whose robots.txt group is applied (default Googlebot, which falls back to `*`). */
  userAgent?: string;
  /** "Now" for the future-lastmod rule (tests pin it). */
  now?: Date;
}

/** Sections tracked for the trailing-slash rule; a tree with more top-level folders is judged on the first. */
const MAX_SECTIONS = 10_000;
/** A lastmod this far ahead is not clock skew or a time zone. */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
const EPOCH = 0;
/** Files with fewer entries are too small for "the same lastmod everywhere" to mean a build stamp. */
const UNIFORM_MIN_ENTRIES = 10;
const UNIFORM_SHARE = 0.9;

const XML_TYPES = /(^|[/+])xml$/;
const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip', 'application/octet-stream']);

/** A space or control character: a <loc> must be percent-encoded. */
function hasSpaceOrControl(loc: string): boolean {
  for (let i = 0; i < loc.length; i++) {
    const c = loc.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
}

interface Section {
  slash: number;
  bare: number;
  slashExample: LintExample;
  bareExample: LintExample | null;
}

interface OpenFile {
  meta: FileMeta;
  index: number;
  base: URL | null;
  urls: number;
  children: number;
  lastmods: LastmodTally;
}

export interface LintTotals {
  files: number;
  filesFailed: number;
  urls: number;
  children: number;
  distinctUrls: number;
}

export class LintEngine {
  private readonly tally = new RuleTally();
  private readonly table = new UrlTable();
  /** Google News entries among themselves: an article listed twice in news sitemaps is a duplicate, but
   * one also in a regular sitemap is not (Google expects it in both). */
  private readonly newsTable = new UrlTable();
  /** Files holding news entries (by index). */
  private readonly newsFiles = new Set<number>();
  /** The site a file without a base of its own is judged against: the origin of the first absolute
   * http(s) page location read (the CLI's local files without --base, the app's uploads without a site
   * URL). */
  private inferredSite: URL | null = null;
  private readonly sections = new Map<string, Section>();
  private readonly labels: string[] = [];
  private readonly robots: RobotsRules | null;
  private readonly userAgent: string;
  private readonly futureAfter: number;
  private file: OpenFile | null = null;
  readonly totals: LintTotals = { files: 0, filesFailed: 0, urls: 0, children: 0, distinctUrls: 0 };

  constructor(options: EngineOptions = {}) {
    this.robots = options.robots ?? null;
    this.userAgent = options.userAgent ?? 'Googlebot';
    this.futureAfter = (options.now ?? new Date()).getTime() + FUTURE_SLACK_MS;
  }

  beginFile(meta: FileMeta): void {
    let base: URL | null = null;
    try {
      base = meta.base === null ? null : new URL(meta.base);
    } catch {
      base = null;
    }
    this.labels.push(meta.label);
    this.file = {
      meta,
      index: this.labels.length - 1,
      base,
      urls: 0,
      children: 0,
      lastmods: new LastmodTally(),
    };
    this.totals.files++;
  }

  /** Judges a batch of the open file's entries; returns the child sitemaps it names, resolved. */
  addEntries(batch: readonly SitemapEntry[]): ChildRef[] {
    const file = this.file;
    if (!file) throw new Error('addEntries before beginFile');
    const children: ChildRef[] = [];
    for (const entry of batch) {
      const where: LintExample = { url: entry.loc, file: file.meta.label, line: entry.line };
      this.judgeLastmod(entry, where);
      if (entry.type === 'sitemap') {
        file.children++;
        const url = this.resolve(entry.loc, file, where);
        if (url) this.judgeHost(url, file, where);
        children.push({ loc: entry.loc, line: entry.line, url: url?.href ?? null });
        continue;
      }
      file.urls++;
      if (entry.priority !== null) this.tally.add('priority_present', where);
      if (entry.changefreq !== null) this.tally.add('changefreq_present', where);
      const url = this.resolve(entry.loc, file, where, true);
      if (url) this.judgeUrl(url, file, where, entry.news > 0);
    }
    return children;
  }

  /** Closes the open file with the reader's stats and, when it failed, its error. */
  endFile(stats: ParseStats, error: { message: string; line?: number } | null): void {
    const file = this.file;
    if (!file) throw new Error('endFile before beginFile');
    this.file = null;
    const label = file.meta.label;
    this.totals.urls += file.urls;
    this.totals.children += file.children;
    if (error) {
      this.totals.filesFailed++;
      this.tally.add('file_unreadable', { file: label, line: error.line, detail: error.message });
    }
    if (file.children > PROTOCOL_MAX_ENTRIES)
      this.tally.add('index_too_many_children', { file: label, detail: `${file.children} sitemaps` });
    if (file.urls > PROTOCOL_MAX_ENTRIES)
      this.tally.add('file_too_many_urls', { file: label, detail: `${file.urls} URLs` });
    if (stats.uncompressedBytes > PROTOCOL_MAX_BYTES)
      this.tally.add('file_too_large', { file: label, detail: `${stats.uncompressedBytes} bytes` });
    for (const warning of stats.warnings) this.judgeWarning(warning, label);
    const uniform = file.lastmods.dominant();
    const entries = file.urls + file.children;
    if (entries >= UNIFORM_MIN_ENTRIES && uniform && uniform.atLeast > UNIFORM_SHARE * entries) {
      const share = Math.floor((100 * uniform.atLeast) / entries);
      this.tally.add('lastmod_uniform', {
        file: label,
        detail: `"${uniform.value}" on at least ${share}% of ${entries} entries`,
      });
    }
    if (!error || stats.kind !== null) this.judgeServing(file.meta, stats);
  }

  /** A file that could not even be opened (HTTP error, network failure, unreadable path). */
  fileFailed(meta: FileMeta, message: string): void {
    this.beginFile(meta);
    this.file = null;
    this.totals.filesFailed++;
    this.tally.add('file_unreadable', { file: meta.label, detail: message });
  }

  /** A child of a local index that the walk refused to map to a file (it would leave the folder). */
  childRefused(child: ChildRef, file: string, reason: string): void {
    this.tally.add('child_refused', { url: child.loc.slice(0, 200), file, line: child.line, detail: reason });
  }

  /** The rules that fired, errors first; call once, after the last file. */
  finish(): LintResult[] {
    for (const [key, section] of this.sections) {
      if (section.slash === 0 || !section.bareExample) continue;
      const example = section.slash < section.bare ? section.slashExample : section.bareExample;
      const detail = `${section.slash} with and ${section.bare} without a trailing slash in ${key}`;
      this.tally.add('trailing_slash_mixed', { ...example, detail }, Math.min(section.slash, section.bare));
    }
    this.totals.distinctUrls = this.table.size;
    return this.tally.results();
  }

  /** The site inferred for files without a base (null until an absolute location was read). */
  get inferredSiteUrl(): string | null {
    return this.inferredSite?.href ?? null;
  }

  private baseOf(file: OpenFile): URL | null {
    return file.base ?? this.inferredSite;
  }

  /** `isPage`: a URL entry, whose origin may become the inferred site (an index's children may live on
   * another host, a CDN's, and would make every page read as on the wrong host). */
  private resolve(loc: string, file: OpenFile, where: LintExample, isPage = false): URL | null {
    if (hasSpaceOrControl(loc)) {
      this.tally.add('loc_invalid', { ...where, detail: 'contains a space or control character' });
      return null;
    }
    const relative = schemeOf(loc) === null;
    const base = this.baseOf(file);
    if (relative) {
      this.tally.add('loc_relative', where);
      if (!base) return null;
    }
    let url: URL;
    try {
      url = relative ? new URL(loc, base as URL) : new URL(loc);
    } catch {
      this.tally.add('loc_invalid', where);
      return null;
    }
    if (url.hostname === '' || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      this.tally.add('loc_invalid', where);
      return null;
    }
    if (isPage && !relative && base === null) this.inferredSite = new URL('/', url.origin);
    return url;
  }

  private judgeLastmod(entry: SitemapEntry, where: LintExample): void {
    if (entry.lastmodRaw === null) return;
    this.file?.lastmods.add(entry.lastmodRaw);
    const lastmod = entry.lastmod;
    const detail = entry.lastmodRaw.slice(0, 60);
    if (lastmod === null) this.tally.add('lastmod_invalid', { ...where, detail });
    else if (lastmod.getTime() < EPOCH) this.tally.add('lastmod_before_1970', { ...where, detail });
    else if (lastmod.getTime() > this.futureAfter) this.tally.add('lastmod_future', { ...where, detail });
  }

  private judgeHost(url: URL, file: OpenFile, where: LintExample): void {
    const base = this.baseOf(file);
    if (!base) return;
    if (url.hostname !== base.hostname) this.tally.add('wrong_host', where);
    else if (base.protocol === 'https:' && url.protocol === 'http:') this.tally.add('http_on_https', where);
  }

  private judgeUrl(url: URL, file: OpenFile, where: LintExample, isNews: boolean): void {
    const href = url.href;
    const first = this.table.add(href, file.index);
    if (isNews) {
      // A news sitemap lists recent articles that the regular sitemaps list too: only a repeat among news
      // entries is a duplicate.
      this.newsFiles.add(file.index);
      const firstNews = this.newsTable.add(href, file.index);
      if (firstNews === file.index) this.tally.add('duplicate_in_file', where);
      else if (firstNews >= 0)
        this.tally.add('duplicate_across_files', { ...where, detail: `also in ${this.labels[firstNews]}` });
    } else if (first === file.index) this.tally.add('duplicate_in_file', where);
    else if (first >= 0 && !this.newsFiles.has(first))
      this.tally.add('duplicate_across_files', { ...where, detail: `also in ${this.labels[first]}` });
    this.judgeHost(url, file, where);
    if (isSearchUrl(url)) this.tally.add('search_url', where);
    else if (isPaginationUrl(url)) this.tally.add('pagination_url', where);
    else if (url.search !== '') this.tally.add('faceted_url', where);
    if (this.robots?.isAllowed(href, this.userAgent) === false) this.tally.add('robots_disallowed', where);
    const form = slashForm(url);
    if (form) this.countSlash(form.section, form.trailingSlash, where);
  }

  private countSlash(key: string, trailingSlash: boolean, where: LintExample): void {
    let section = this.sections.get(key);
    if (!section) {
      if (this.sections.size >= MAX_SECTIONS) return;
      section = { slash: 0, bare: 0, slashExample: where, bareExample: null };
      this.sections.set(key, section);
    }
    if (trailingSlash) {
      if (section.slash === 0) section.slashExample = where;
      section.slash++;
    } else {
      if (section.bare === 0) section.bareExample = where;
      section.bare++;
    }
  }

  /** The reader's own per-file findings, mapped to rules (it already counts and bounds them). */
  private judgeWarning(warning: SitemapWarning, file: string): void {
    const code = warningRule(warning.code);
    if (code === null) return;
    const count = warning.count ?? leadingCount(warning.message);
    const examples = warning.examples ?? [];
    if (examples.length === 0 || code === 'reader_warning' || code === 'namespace_problem') {
      this.tally.add(code, { file, line: warning.line, detail: warning.message }, count);
      return;
    }
    examples.forEach((example, i) => {
      this.tally.add(
        code,
        { url: example.prefix, file, line: example.line },
        i === 0 ? count - examples.length + 1 : 1,
      );
    });
  }

  private judgeServing(meta: FileMeta, stats: ParseStats): void {
    const file = meta.label;
    if (meta.requestedUrl !== null && meta.finalUrl !== null && meta.requestedUrl !== meta.finalUrl)
      this.tally.add('sitemap_redirected', {
        file: meta.requestedUrl,
        detail: `redirects to ${meta.finalUrl}`,
      });
    const type = meta.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== '') {
      const fits =
        XML_TYPES.test(type) ||
        (stats.kind === 'text' && type === 'text/plain') ||
        (stats.gzip && GZIP_TYPES.has(type));
      if (!fits) this.tally.add('content_type_not_xml', { file, detail: `Content-Type: ${type}` });
    }
    const named = /\.gz$/i.test(meta.name);
    const encoded = /gzip/i.test(meta.contentEncoding ?? '');
    const gzip = stats.gzip || (named && encoded);
    if (stats.uncompressedBytes > 0 && named !== gzip) {
      this.tally.add('gzip_mismatch', {
        file,
        detail: named ? 'named .gz but not gzip-compressed' : 'gzip-compressed but not named .gz',
      });
    }
    if (meta.bom) this.tally.add('bom', { file });
  }
}

function warningRule(code: string): RuleCode | null {
  switch (code) {
    case 'loc_too_long':
      return 'loc_too_long';
    case 'non_http_loc':
      return 'loc_non_http';
    case 'missing_loc':
      return 'loc_missing';
    case 'missing_namespace':
    case 'nonstandard_namespace':
    case 'unbound_prefix':
      return 'namespace_problem';
    // Judged by the engine itself from the counts.
    case 'over_protocol_limit':
      return null;
    default:
      return 'reader_warning';
  }
}

/** The reader's counted warnings ("3 entries have no <loc>…") carry their count in the message. */
function leadingCount(message: string): number {
  const match = /^(\d+) /.exec(message);
  return match ? Number(match[1]) : 1;
}
