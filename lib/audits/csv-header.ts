// Reads the header row of a crawl CSV/TSV in the browser and guesses which column holds each field, so
// the column-map editor can offer choices before anything is uploaded.
import type { CrawlField } from './crawl-fields';
import { CRAWL_FIELDS } from './schema';

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
  inlinks: ['unique inlinks', 'inlinks', 'inlink count'],
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
