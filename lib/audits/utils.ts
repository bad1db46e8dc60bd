// Pure helpers for the audit UI: tree building, number/size/date formatting, labels and form validation.
import { type AuditStatus, CRAWL_FIELDS, type SitemapFileDto, type TAuditOptions } from './schema';

// ── Sitemap file tree ────────────────────────────────────────────────────────

export interface TreeInput {
  id: number;
  parentId: number | null;
  /** Optional explicit order; without it the input order is kept (the API sends files by position). */
  position?: number;
}

export interface TreeNode<T extends TreeInput> {
  file: T;
  children: TreeNode<T>[];
  /** Number of files below this node (children, grandchildren, ...). */
  descendants: number;
}

/**
 * Nests files by parentId. Files whose parent is missing (or that sit in a parent cycle) become roots,
 * so no file is ever dropped. Siblings keep a stable order: position, then input order, then id.
 */
export function buildFileTree<T extends TreeInput>(files: readonly T[]): TreeNode<T>[] {
  const order = new Map<number, number>();
  const nodes = new Map<number, TreeNode<T>>();
  files.forEach((file, index) => {
    if (nodes.has(file.id)) return; // duplicate ids: first one wins
    order.set(file.id, index);
    nodes.set(file.id, { file, children: [], descendants: 0 });
  });
  const compare = (a: TreeNode<T>, b: TreeNode<T>): number => {
    const pa = a.file.position ?? order.get(a.file.id) ?? 0;
    const pb = b.file.position ?? order.get(b.file.id) ?? 0;
    if (pa !== pb) return pa - pb;
    const ia = order.get(a.file.id) ?? 0;
    const ib = order.get(b.file.id) ?? 0;
    return ia !== ib ? ia - ib : a.file.id - b.file.id;
  };

  const roots: TreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parentId = node.file.parentId;
    const parent = parentId === null || parentId === node.file.id ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }

  // Nodes in a parent cycle are unreachable from any root: lift them to the root level.
  const reached = new Set<number>();
  const mark = (list: TreeNode<T>[]) => {
    const stack = [...list];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (reached.has(node.file.id)) continue;
      reached.add(node.file.id);
      stack.push(...node.children);
    }
  };
  mark(roots);
  for (const node of nodes.values()) {
    if (reached.has(node.file.id)) continue;
    const parent = node.file.parentId === null ? undefined : nodes.get(node.file.parentId);
    if (parent) parent.children = parent.children.filter((child) => child !== node);
    roots.push(node);
    mark([node]);
  }

  const finish = (list: TreeNode<T>[]): number => {
    list.sort(compare);
    let total = 0;
    for (const node of list) {
      node.descendants = finish(node.children);
      total += 1 + node.descendants;
    }
    return total;
  };
  finish(roots);
  return roots;
}

/** Ids of nodes that start expanded: the first `levels` levels, but only for reasonably small trees. */
export function initiallyExpanded<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  levels = 1,
  maxChildren = 200,
): Set<number> {
  const open = new Set<number>();
  const visit = (list: readonly TreeNode<T>[], depth: number) => {
    if (depth >= levels) return;
    for (const node of list) {
      if (node.children.length === 0 || node.children.length > maxChildren) continue;
      open.add(node.file.id);
      visit(node.children, depth + 1);
    }
  };
  visit(roots, 0);
  return open;
}

// ── Formatting ───────────────────────────────────────────────────────────────

const countFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return countFormat.format(value);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** Binary units, one decimal below 10 (e.g. "1.5 KiB", "12 MiB"); null or negative → "—". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value} B`;
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  // 1023.99 KiB rounds to 1024: show it as the next unit instead.
  if (rounded >= 1024 && unit < BYTE_UNITS.length - 1) return `1 ${BYTE_UNITS[unit + 1]}`;
  return `${rounded} ${BYTE_UNITS[unit]}`;
}

/** Whole percent of done/total, clamped to 0..100; null when the total is unknown (indeterminate). */
export function progressPercent(progress: { done: number; total: number }): number | null {
  if (!(progress.total > 0)) return null;
  return Math.min(100, Math.max(0, Math.floor((progress.done / progress.total) * 100)));
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** "30 Nov 2026, 12:05" in the given (default: local) time zone; invalid input → "—". */
export function formatDateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const key = timeZone ?? '';
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
    dateTimeFormats.set(key, format);
  }
  return format.format(date);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago"; past-only (future dates read "just now"). */
export function formatRelativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '—';
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** "4.2 s", "3 min 5 s", "2 h 4 min" between two instants; missing end → null. */
export function formatDuration(startIso: string | null, endIso: string | null): string | null {
  if (!startIso || !endIso) return null;
  const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
  if (!Number.isFinite(ms) || ms < 0) return null;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min ${seconds} s`;
}

// ── Labels and tones ─────────────────────────────────────────────────────────

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const STATUS_LABELS: Record<AuditStatus | SitemapFileDto['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  partial: 'Partial',
  failed: 'Failed',
  pending: 'Pending',
  ok: 'OK',
  skipped: 'Skipped',
};

const STATUS_TONES: Record<AuditStatus | SitemapFileDto['status'], Tone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'success',
  partial: 'warning',
  failed: 'danger',
  pending: 'neutral',
  ok: 'success',
  skipped: 'warning',
};

type KnownStatus = keyof typeof STATUS_LABELS;

function isKnownStatus(status: string): status is KnownStatus {
  return Object.hasOwn(STATUS_LABELS, status);
}

/** Human label for an audit or sitemap-file status; unknown values are shown capitalised. */
export function statusLabel(status: string): string {
  if (isKnownStatus(status)) return STATUS_LABELS[status];
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown';
}

export function statusTone(status: string): Tone {
  return isKnownStatus(status) ? STATUS_TONES[status] : 'neutral';
}

export function isActiveStatus(status: AuditStatus): boolean {
  return status === 'queued' || status === 'running';
}

const PHASE_LABELS: Record<string, string> = {
  starting: 'Starting',
  sitemaps: 'Reading sitemaps',
  crawl: 'Importing crawl export',
  done: 'Done',
  failed: 'Failed',
};

export function phaseLabel(phase: string): string {
  const known = PHASE_LABELS[phase];
  if (known) return known;
  return phase ? phase.charAt(0).toUpperCase() + phase.slice(1) : '';
}

const KIND_LABELS: Record<string, string> = {
  robots: 'robots.txt',
  index: 'Sitemap index',
  urlset: 'URL set',
  text: 'Text list',
  rss: 'RSS feed',
  atom: 'Atom feed',
};

export function kindLabel(kind: string | null): string {
  if (!kind) return 'Unknown type';
  return KIND_LABELS[kind] ?? kind;
}

const CRAWL_FORMAT_LABELS: Record<string, string> = {
  jsonl: 'JSON Lines',
  'screaming-frog': 'Screaming Frog CSV',
  csv: 'CSV (mapped columns)',
};

export function crawlFormatLabel(format: string | null): string {
  if (!format) return 'Not detected';
  return CRAWL_FORMAT_LABELS[format] ?? format;
}

/** What to call a sitemap file: its URL, else its upload name, else its id. */
export function fileLabel(file: Pick<SitemapFileDto, 'id' | 'url' | 'uploadName'>): string {
  return file.url ?? file.uploadName ?? `File #${file.id}`;
}

// ── New-audit form ───────────────────────────────────────────────────────────

export type CrawlField = (typeof CRAWL_FIELDS)[number];

export const CRAWL_FIELD_LABELS: Record<CrawlField, string> = {
  url: 'URL',
  status: 'HTTP status',
  canonical: 'Canonical URL',
  indexable: 'Indexable',
  noindex: 'Noindex',
  crawledAt: 'Crawled at',
  depth: 'Crawl depth',
  redirectUrl: 'Redirect URL',
  contentType: 'Content type',
  blockedByRobots: 'Blocked by robots.txt',
};

export const SITEMAP_FILE_PATTERN = /\.(xml|xml\.gz|gz|txt|txt\.gz|rss|atom)$/i;

/** Non-empty, trimmed lines with duplicates removed (first occurrence kept). */
export function parseUrlLines(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const value = line.trim();
    if (value) seen.add(value);
  }
  return [...seen];
}

/** Null when the value is an absolute http(s) URL, else a sentence saying what is wrong. */
export function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a full URL (start it with https://)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${value}" must start with http:// or https://`;
  return null;
}

export type CrawlFormatChoice = 'auto' | 'jsonl' | 'screaming-frog' | 'csv';

export interface NewAuditInput {
  name: string;
  sitemapUrlsText: string;
  sitemapFiles: readonly File[];
  crawlFile: File | null;
  crawlUrl: string;
  normalization: 'exact' | 'lenient';
  crawlFormat: CrawlFormatChoice;
  columnMap: Partial<Record<CrawlField, string>>;
}

/** Which crawl source the input names; 'both' is invalid (the API takes one crawl export). */
export function crawlSource(
  input: Pick<NewAuditInput, 'crawlFile' | 'crawlUrl'>,
): 'none' | 'file' | 'url' | 'both' {
  const hasUrl = input.crawlUrl.trim() !== '';
  if (input.crawlFile) return hasUrl ? 'both' : 'file';
  return hasUrl ? 'url' : 'none';
}

export type NewAuditErrors = Partial<
  Record<'name' | 'sitemaps' | 'sitemapFiles' | 'crawl' | 'columnMap', string>
>;

export function validateNewAudit(input: NewAuditInput): NewAuditErrors {
  const errors: NewAuditErrors = {};
  if (input.name.trim().length > 200) errors.name = 'Keep the name to 200 characters or fewer.';

  const urls = parseUrlLines(input.sitemapUrlsText);
  if (urls.length === 0 && input.sitemapFiles.length === 0) {
    errors.sitemaps = 'Add at least one sitemap: enter a URL or choose a sitemap file.';
  } else if (urls.length > 100) {
    errors.sitemaps = `Enter at most 100 sitemap URLs (you entered ${urls.length}).`;
  } else {
    const problems = urls.map(urlProblem).filter((problem): problem is string => problem !== null);
    if (problems.length > 0) {
      errors.sitemaps =
        problems.length === 1 ? (problems[0] ?? '') : `${problems[0]} (and ${problems.length - 1} more)`;
    }
  }
  const badFile = input.sitemapFiles.find((file) => !SITEMAP_FILE_PATTERN.test(file.name));
  const emptyFile = input.sitemapFiles.find((file) => file.size === 0);
  if (badFile) errors.sitemapFiles = `${badFile.name} is not a sitemap file: use .xml, .xml.gz, .gz or .txt.`;
  else if (emptyFile) errors.sitemapFiles = `${emptyFile.name} is empty.`;

  const crawl = crawlSource(input);
  if (crawl === 'both') {
    errors.crawl = 'Give one crawl export: remove the file or clear the URL.';
  } else if (crawl === 'file' && input.crawlFile?.size === 0) {
    errors.crawl = `${input.crawlFile.name} is empty.`;
  } else if (crawl === 'url') {
    const problem = urlProblem(input.crawlUrl.trim());
    if (problem) errors.crawl = problem;
  }

  if (crawl !== 'none' && input.crawlFormat === 'csv' && !input.columnMap.url?.trim()) {
    errors.columnMap = 'Say which column holds the page URL.';
  }
  return errors;
}

export function buildAuditOptions(input: NewAuditInput): TAuditOptions {
  const options: TAuditOptions = { normalization: input.normalization };
  if (crawlSource(input) === 'none' || input.crawlFormat === 'auto') return options;
  options.crawlFormat = input.crawlFormat;
  if (input.crawlFormat === 'csv') {
    const columnMap: Partial<Record<CrawlField, string>> = {};
    for (const field of CRAWL_FIELDS) {
      const header = input.columnMap[field]?.trim();
      if (header) columnMap[field] = header;
    }
    options.columnMap = columnMap;
  }
  return options;
}

/** The multipart body POST /api/v1/audits expects. */
export function buildAuditFormData(input: NewAuditInput): FormData {
  const form = new FormData();
  const name = input.name.trim();
  if (name) form.append('name', name);
  for (const url of parseUrlLines(input.sitemapUrlsText)) form.append('sitemapUrl', url);
  for (const file of input.sitemapFiles) form.append('sitemap', file, file.name);
  // Validation rejects 'both'; if it gets here anyway the file wins.
  if (input.crawlFile) form.append('crawl', input.crawlFile, input.crawlFile.name);
  else if (input.crawlUrl.trim()) form.append('crawlUrl', input.crawlUrl.trim());
  form.append('options', JSON.stringify(buildAuditOptions(input)));
  return form;
}

/** Adds files to a list, skipping ones already in it (same name, size and modification time). */
export function mergeFiles(existing: readonly File[], added: readonly File[]): File[] {
  const key = (file: File) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
  const seen = new Set(existing.map(key));
  const result = [...existing];
  for (const file of added) {
    if (seen.has(key(file))) continue;
    seen.add(key(file));
    result.push(file);
  }
  return result;
}

// ── Tree views ───────────────────────────────────────────────────────────────

/** Keeps nodes that match and the ancestors leading to them; descendant counts describe the filtered tree. */
export function filterTree<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  matches: (file: T) => boolean,
): TreeNode<T>[] {
  const result: TreeNode<T>[] = [];
  for (const node of roots) {
    const children = filterTree(node.children, matches);
    if (children.length === 0 && !matches(node.file)) continue;
    const descendants = children.reduce((sum, child) => sum + 1 + child.descendants, 0);
    result.push({ file: node.file, children, descendants });
  }
  return result;
}

export type VisibleRow<T extends TreeInput> =
  | {
      type: 'node';
      key: string;
      node: TreeNode<T>;
      level: number;
      parentKey: string | null;
      setSize: number;
      posInSet: number;
    }
  | { type: 'more'; key: string; groupKey: string; level: number; parentKey: string | null; hidden: number };

export const ROOT_GROUP = 'root';

export function nodeKey(id: number): string {
  return `n${id}`;
}

/**
 * The rows a tree view shows, in order: expanded nodes' children, each group capped at its limit and
 * followed by a "show more" row when some are hidden. Levels start at 1 (as aria-level does).
 */
export function flattenVisible<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  isExpanded: (id: number) => boolean,
  limitOf: (groupKey: string) => number,
): VisibleRow<T>[] {
  const rows: VisibleRow<T>[] = [];
  // Iterative walk: deep trees must not overflow the stack.
  type Frame = {
    list: readonly TreeNode<T>[];
    index: number;
    level: number;
    groupKey: string;
    parentKey: string | null;
  };
  const stack: Frame[] = [{ list: roots, index: 0, level: 1, groupKey: ROOT_GROUP, parentKey: null }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (!frame) break;
    const limit = Math.max(1, limitOf(frame.groupKey));
    if (frame.index >= frame.list.length || frame.index >= limit) {
      const hidden = frame.list.length - Math.min(limit, frame.list.length);
      if (hidden > 0) {
        rows.push({
          type: 'more',
          key: `more:${frame.groupKey}`,
          groupKey: frame.groupKey,
          level: frame.level,
          parentKey: frame.parentKey,
          hidden,
        });
      }
      stack.pop();
      continue;
    }
    const node = frame.list[frame.index];
    frame.index += 1;
    if (!node) continue;
    const key = nodeKey(node.file.id);
    rows.push({
      type: 'node',
      key,
      node,
      level: frame.level,
      parentKey: frame.parentKey,
      setSize: frame.list.length,
      posInSet: frame.index,
    });
    if (node.children.length > 0 && isExpanded(node.file.id)) {
      stack.push({
        list: node.children,
        index: 0,
        level: frame.level + 1,
        groupKey: String(node.file.id),
        parentKey: key,
      });
    }
  }
  return rows;
}

// ── CSV header sniffing (for the column-map editor) ──────────────────────────

/** Decodes the first bytes of a text file, honouring a UTF-8 or UTF-16 byte-order mark. */
export function decodeHead(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

function splitCsvLine(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      fields.push(field.trim());
      field = '';
    } else field += char;
  }
  fields.push(field.trim());
  return fields;
}

function countOutsideQuotes(line: string, char: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === char) count += 1;
  }
  return count;
}

/**
 * The column headers of a CSV/TSV from its first few kilobytes: the first line with at least two
 * fields (Screaming Frog's legacy exports start with a one-cell title line). Empty when none is found.
 */
export function parseCsvHeader(text: string): string[] {
  const lines = text.split(/\r?\n/).slice(0, 5);
  for (const line of lines) {
    const delimiter = [',', '\t', ';'].reduce((best, candidate) =>
      countOutsideQuotes(line, candidate) > countOutsideQuotes(line, best) ? candidate : best,
    );
    if (countOutsideQuotes(line, delimiter) === 0) continue;
    return splitCsvLine(line, delimiter).filter((header) => header !== '');
  }
  return [];
}

const HEADER_SYNONYMS: Record<CrawlField, string[]> = {
  url: ['address', 'url', 'page url', 'page', 'loc'],
  status: ['status code', 'http status code', 'status_code', 'http status', 'response code'],
  canonical: ['canonical link element 1', 'canonical url', 'canonical'],
  indexable: ['indexability', 'indexable', 'is indexable'],
  noindex: ['noindex', 'is noindex'],
  crawledAt: ['crawl timestamp', 'crawled at', 'crawled', 'last crawled', 'crawl date'],
  depth: ['crawl depth', 'depth'],
  redirectUrl: ['redirect url', 'redirect uri', 'redirect location', 'redirect to'],
  contentType: ['content type', 'content-type'],
  blockedByRobots: ['blocked by robots.txt', 'blocked by robots', 'robots.txt blocked'],
};

const normalizeHeader = (header: string) =>
  header
    .toLowerCase()
    .replace(/[_\s]+/g, ' ')
    .trim();

/** Best-guess header for each field, by common names in crawler exports; fields without a match are left out. */
export function suggestColumnMap(headers: readonly string[]): Partial<Record<CrawlField, string>> {
  const byName = new Map<string, string>();
  for (const header of headers) {
    const key = normalizeHeader(header);
    if (!byName.has(key)) byName.set(key, header);
  }
  const map: Partial<Record<CrawlField, string>> = {};
  for (const field of CRAWL_FIELDS) {
    const match = HEADER_SYNONYMS[field]
      .map((name) => byName.get(name))
      .find((header) => header !== undefined);
    if (match) map[field] = match;
  }
  return map;
}
