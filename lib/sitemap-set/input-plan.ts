// The input layout's plan: which file of the audit becomes which file of the set, under which name, in
// which index, and what the decisions change in it. Pure (the rows and counts come from data.ts), so the
// summary forecasts exactly the files the zip writes; only a split by bytes is measured while writing.
import type { InputFileCounts, InputFileRow } from './data';
import type { SetFileChange, SetWarning } from './schema';

/** The approved additions' own file, listed in the first index. */
export const ADDED_NAME = 'sitemap-added.xml';
/** Names the zip holds besides the sitemap files. */
const RESERVED = ['summary.json'];

export type PlannedKind = 'urlset' | 'text' | 'index' | 'added';

export interface PlannedFile {
  /** The input file (null: the additions' file). */
  source: InputFileRow | null;
  kind: PlannedKind;
  /** The file's name in the set (its first part's, when it is split). */
  name: string;
  /** The input's own name, when it had to change (a clash, a character no file name should hold). */
  renamedFrom: string | null;
  gzip: boolean;
  /** The root start tag to write (urlset and index). */
  rootTag: string;
  counts: InputFileCounts;
  /** Forecast of the parts' names (the first is `name`); the writer adds more if bytes need them. */
  parts: string[];
  dropped: boolean;
  /** Where the index lists this file: its declared <loc> (kept when the name is) and <lastmod>. */
  listedLoc: string | null;
  listedLastmod: string | null;
}

/** An input file the set does not write: the index keeps listing it as declared. */
export interface KeptAsIs {
  source: InputFileRow;
  reason: 'not_read' | 'feed';
}

export interface InputPlan {
  files: PlannedFile[];
  keptAsIs: KeptAsIs[];
  /** Index id → its children, in the declared order: a planned file or one kept as is. */
  children: Map<number, (PlannedFile | KeptAsIs)[]>;
  /** The index the additions are listed in (null: none, or no addition). */
  addedIndex: PlannedFile | null;
  names: NameBook;
}

export interface PlanOptions {
  maxUrls: number;
  maxBytes: number;
  added: number;
  /** Where files are served when the request names a base (else beside the file they replace). */
  base: string | null;
  /** The site's origin + '/': where a file with no declared place is served. */
  siteBase: string;
}

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const DEFAULT_URLSET_TAG = `urlset xmlns="${NS}"`;
export const DEFAULT_INDEX_TAG = `sitemapindex xmlns="${NS}"`;

/** `name` → [stem, extension]: `sitemap.xml.gz` → [sitemap, .xml.gz]; `a.b.01.xml` → [a.b.01, .xml]. */
export function splitName(name: string): [string, string] {
  const match = /(\.[A-Za-z0-9]{1,5})?(\.gz)?$/i.exec(name);
  const ext = match?.[0] ?? '';
  const stem = name.slice(0, name.length - ext.length);
  return stem === '' ? [name, ''] : [stem, ext];
}

/** File names handed out so far: a clash gets `_2`, `_3`… before its extension. */
export class NameBook {
  private readonly used = new Set<string>(RESERVED.map((n) => n.toLowerCase()));

  take(wanted: string): string {
    let name = wanted;
    const [stem, ext] = splitName(wanted);
    for (let n = 2; this.used.has(name.toLowerCase()); n++) name = `${stem}_${n}${ext}`;
    this.used.add(name.toLowerCase());
    return name;
  }
}

/** The name a file was read under: an upload's name, a fetched file's last path segment. */
export function inputName(file: Pick<InputFileRow, 'uploadName' | 'url'>): string {
  if (file.uploadName) return file.uploadName.split(/[\\/]/).at(-1) || file.uploadName;
  let segment = '';
  try {
    segment = new URL(file.url ?? '').pathname.split('/').at(-1) ?? '';
  } catch {
    segment = (file.url ?? '').split(/[?#]/)[0]?.split('/').at(-1) ?? '';
  }
  return segment;
}

/** A name safe in a zip, a file system and a URL path; '' when nothing is left. */
export function safeName(name: string): string {
  let text = name;
  try {
    text = decodeURIComponent(name);
  } catch {
    // A malformed escape: made safe below like any other character.
  }
  return text
    .replace(/[^A-Za-z0-9._~-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, 120);
}

const WRITTEN_KINDS = new Set(['urlset', 'text', 'index']);
/** Skipped rows that are a file the walk never read (not a repeat listing, a cycle or a missing fallback). */
const UNREAD_CODES = new Set(['limit_reached', 'too_deep', 'audit_budget_spent', 'inflate_budget_spent']);

function partNames(names: NameBook, name: string, parts: number): string[] {
  const [stem, ext] = splitName(name);
  const out = [name];
  for (let k = 2; k <= parts; k++) out.push(names.take(`${stem}-${k}${ext}`));
  return out;
}

function forecastParts(counts: InputFileCounts, urls: number, options: PlanOptions): number {
  return Math.max(1, Math.ceil(urls / options.maxUrls), Math.ceil((counts.bytes + 200) / options.maxBytes));
}

export function planInputLayout(
  rows: readonly InputFileRow[],
  counts: ReadonlyMap<number, InputFileCounts>,
  options: PlanOptions,
): InputPlan {
  const names = new NameBook();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const files: PlannedFile[] = [];
  const keptAsIs: KeptAsIs[] = [];
  const entryOf = new Map<number, PlannedFile | KeptAsIs>();
  const zero: InputFileCounts = { entries: 0, removed: 0, replaced: 0, bytes: 0 };
  for (const row of rows) {
    if (row.kind === 'robots') continue;
    if (row.status === 'ok' && WRITTEN_KINDS.has(row.kind ?? '')) {
      const original = inputName(row);
      const safe = safeName(original) || (row.kind === 'text' ? 'sitemap.txt' : 'sitemap.xml');
      const name = names.take(safe);
      const fileCounts = counts.get(row.id) ?? zero;
      const kind = row.kind as PlannedKind;
      const file: PlannedFile = {
        source: row,
        kind,
        name,
        renamedFrom: name === original ? null : original,
        gzip: row.gzipped === true,
        rootTag: row.rootTag ?? (kind === 'index' ? DEFAULT_INDEX_TAG : DEFAULT_URLSET_TAG),
        counts: fileCounts,
        parts: [name],
        dropped: false,
        listedLoc: row.listedLoc,
        listedLastmod: row.listedLastmod,
      };
      files.push(file);
      entryOf.set(row.id, file);
    } else if (
      (row.parentId === null || ['robots', 'index'].includes(byId.get(row.parentId)?.kind ?? '')) &&
      (row.status === 'failed' ||
        (row.status === 'ok' && (row.kind === 'rss' || row.kind === 'atom')) ||
        (row.status === 'skipped' && UNREAD_CODES.has(row.errorCode ?? '')))
    ) {
      // (A <sitemap> inside a urlset, which the protocol does not allow, is not written back.)
      const kept: KeptAsIs = { source: row, reason: row.status === 'ok' ? 'feed' : 'not_read' };
      keptAsIs.push(kept);
      entryOf.set(row.id, kept);
    }
  }
  // Split parts are named once every input name is taken: an input file keeps its own name first.
  for (const file of files) {
    if (file.kind === 'index') continue;
    const urls = file.counts.entries - file.counts.removed;
    file.dropped = file.counts.entries > 0 && urls === 0;
    if (!file.dropped) file.parts = partNames(names, file.name, forecastParts(file.counts, urls, options));
  }
  const children = new Map<number, (PlannedFile | KeptAsIs)[]>();
  for (const row of rows) {
    if (row.parentId === null || byId.get(row.parentId)?.kind !== 'index') continue;
    const child = entryOf.get(row.id) ?? { source: row, reason: 'not_read' as const };
    const list = children.get(row.parentId) ?? [];
    list.push(child);
    children.set(row.parentId, list);
  }
  // An index whose every child is dropped is dropped too (innermost first: children come after parents).
  for (const file of [...files].reverse()) {
    if (file.kind !== 'index' || !file.source) continue;
    const list = children.get(file.source.id) ?? [];
    file.counts = { entries: list.length, removed: 0, replaced: 0, bytes: 0 };
    const left = list.filter((c) => !('dropped' in c && c.dropped));
    file.counts.removed = list.length - left.length;
    file.dropped = list.length > 0 && left.length === 0;
  }
  let addedIndex: PlannedFile | null = null;
  if (options.added > 0) {
    const topLevel = (f: PlannedFile) => {
      const parent = f.source?.parentId == null ? null : byId.get(f.source.parentId);
      return !parent || parent.kind === 'robots';
    };
    addedIndex = files.find((f) => f.kind === 'index' && !f.dropped && topLevel(f)) ?? null;
    const name = names.take(ADDED_NAME);
    const counts = { entries: 0, removed: 0, replaced: 0, bytes: options.added * 90 };
    const added: PlannedFile = {
      source: null,
      kind: 'added',
      name,
      renamedFrom: null,
      gzip: false,
      rootTag: DEFAULT_URLSET_TAG,
      counts,
      parts: [name],
      dropped: false,
      listedLoc: null,
      listedLastmod: null,
    };
    added.parts = partNames(names, name, forecastParts(counts, options.added, options));
    files.push(added);
    if (addedIndex?.source) {
      const list = children.get(addedIndex.source.id) ?? [];
      list.push(added);
      children.set(addedIndex.source.id, list);
    }
  }
  return { files, keptAsIs, children, addedIndex, names };
}

/** Where a planned file (part) is served: the request's base; else the declared <loc> when the name is
 * kept; else beside it (or beside the index, or at the site's root). */
export function locOf(file: PlannedFile, part: string, options: PlanOptions, near: string | null): string {
  if (options.base) return `${options.base}${part}`;
  const original = file.source ? inputName(file.source) : null;
  if (file.listedLoc && part === original) return file.listedLoc;
  for (const reference of [file.listedLoc, file.source?.url, near]) {
    if (!reference) continue;
    try {
      return new URL(encodeURI(part), reference).href;
    } catch {
      // Not absolute: the next reference.
    }
  }
  return `${options.siteBase}${part}`;
}

/** The per-file change list and the warnings, from the plan and (once written) the parts each file took. */
export function describePlan(
  plan: InputPlan,
  options: PlanOptions,
  written?: ReadonlyMap<PlannedFile, { name: string; urls: number; bytes: number }[]>,
): { files: SetFileChange[]; warnings: SetWarning[] } {
  const changes: SetFileChange[] = [];
  const renamed: string[] = [];
  const dropped: string[] = [];
  const split: string[] = [];
  const notListed: string[] = [];
  const keptLabels: string[] = [];
  let unapplied = 0;
  const refused: string[] = [];
  const hasIndex = plan.files.some((f) => f.kind === 'index' && !f.dropped);
  for (const file of plan.files) {
    const parts = written?.get(file)?.map((p) => p.name) ?? (file.dropped ? [] : file.parts);
    // An index lists each part of a written child, a child kept as is, and the additions.
    const listed =
      file.kind === 'index' && file.source
        ? (plan.children.get(file.source.id) ?? []).map((c) =>
            'kind' in c ? (c.dropped ? [] : (written?.get(c)?.map((p) => p.name) ?? c.parts)) : [null],
          )
        : [];
    const childChanged = (plan.children.get(file.source?.id ?? -1) ?? []).some(
      (c) => 'kind' in c && (c.kind === 'added' || c.renamedFrom !== null),
    );
    const urls =
      file.kind === 'added'
        ? options.added
        : file.kind === 'index'
          ? listed.reduce((n, l) => n + l.length, 0)
          : file.counts.entries - file.counts.removed;
    const source = file.source ? (file.source.url ?? file.source.uploadName) : null;
    const status: SetFileChange['status'] = file.dropped
      ? 'dropped'
      : file.kind === 'added'
        ? 'new'
        : file.counts.removed > 0 ||
            file.counts.replaced > 0 ||
            parts.length > 1 ||
            file.renamedFrom ||
            (file.kind === 'index' && (urls !== file.counts.entries || childChanged))
          ? 'changed'
          : 'unchanged';
    changes.push({
      name: file.name,
      source,
      kind: file.kind,
      status,
      entries: file.kind === 'added' ? 0 : file.counts.entries,
      urls: file.dropped ? 0 : urls,
      removed: file.kind === 'added' ? 0 : file.counts.removed,
      replaced: file.counts.replaced,
      added: file.kind === 'added' ? options.added : 0,
      renamedFrom: file.renamedFrom,
      parts,
    });
    if (file.renamedFrom !== null) renamed.push(`${file.renamedFrom} → ${file.name}`);
    if (file.source && file.source.refused > 0) refused.push(`${file.name} (${file.source.refused})`);
    if (file.dropped) dropped.push(file.name);
    if (parts.length > 1) split.push(`${file.name} → ${parts.length} files`);
    const isTop = !file.source || file.source.parentId === null || !plan.children.has(file.source.parentId);
    if (file.kind === 'added' && !plan.addedIndex) notListed.push(...parts);
    else if (file.kind !== 'added' && isTop && parts.length > 1) notListed.push(...parts.slice(1));
  }
  for (const kept of plan.keptAsIs) {
    const label = kept.source.url ?? kept.source.uploadName ?? `file ${kept.source.id}`;
    keptLabels.push(label);
    changes.push({
      name: inputName(kept.source) || label,
      source: label,
      kind: kept.reason === 'feed' ? 'feed' : 'unread',
      status: 'kept_as_is',
      entries: 0,
      urls: 0,
      removed: 0,
      replaced: 0,
      added: 0,
      renamedFrom: null,
      parts: [],
    });
    unapplied += 1;
  }
  const warnings: SetWarning[] = [];
  if (renamed.length > 0) {
    warnings.push({
      code: 'renamed',
      message: `${renamed.length === 1 ? 'A file gets' : `${renamed.length} files get`} another name (${renamed.join(', ')}): Search Console keeps a sitemap's history under its URL, so submit the new name there and update robots.txt Sitemap: lines that name the old one.`,
      files: renamed,
    });
  }
  if (dropped.length > 0) {
    warnings.push({
      code: 'dropped',
      message: `${dropped.join(', ')} would be empty after the approved prunes and ${dropped.length === 1 ? 'is' : 'are'} left out of the set and of ${dropped.length === 1 ? 'its' : 'their'} index: remove ${dropped.length === 1 ? 'it' : 'them'} in Search Console and from robots.txt Sitemap: lines, and let the old URL answer 404 or 410.`,
      files: dropped,
    });
  }
  if (split.length > 0) {
    warnings.push({
      code: 'split',
      message: `Over ${options.maxUrls.toLocaleString('en-US')} URLs or ${Math.round(options.maxBytes / 1048576)} MB, ${split.join(', ')}: the first part keeps the name, the rest are new files${hasIndex ? ' listed in the same index' : ''}.`,
      files: split,
    });
  }
  if (notListed.length > 0) {
    warnings.push({
      code: 'not_listed',
      message: `No index lists ${notListed.join(', ')}: add a Sitemap: line to robots.txt or submit ${notListed.length === 1 ? 'it' : 'them'} in Search Console.`,
      files: notListed,
    });
  }
  if (unapplied > 0) {
    warnings.push({
      code: 'kept_as_is',
      message: `${keptLabels.length === 1 ? 'One file was' : `${keptLabels.length} files were`} not read in full or ${keptLabels.length === 1 ? 'is' : 'are'} a feed (${keptLabels.slice(0, 5).join(', ')}${keptLabels.length > 5 ? ', …' : ''}): the set does not rewrite ${keptLabels.length === 1 ? 'it' : 'them'} and indexes keep listing ${keptLabels.length === 1 ? 'it' : 'them'} as declared; keep serving your copy, decisions on its URLs are not applied there.`,
      files: keptLabels,
    });
  }
  if (refused.length > 0) {
    warnings.push({
      code: 'entries_not_kept',
      message: `Entries the audit could not read as a URL (no <loc>, a location that is not http(s), or one longer than the limit) are not written back: ${refused.join(', ')}. The file's warnings on the Sitemap files tab name them.`,
      files: refused,
    });
  }
  return { files: changes, warnings };
}
