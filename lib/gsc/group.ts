// A set of files (several uploads, or the entries of one zip) → Search Console exports: a drilldown is
// Table + Metadata (+ Chart), an overview Critical/Non-critical issues + Metadata + Chart. Files are
// kept apart by folder (several exports in one zip) and, where a folder holds two of a kind, by name
// ("Table (1).csv" goes with "Metadata (1).csv").
import { createHash } from 'node:crypto';
import path from 'node:path';
import { normaliseName } from './columns';
import { type ParseLimits, parseGscFile } from './parse';
import type {
  DrilldownExport,
  ExportDescription,
  GscExport,
  GscFile,
  GscFileOf,
  IgnoredFile,
  OverviewExport,
} from './types';
import { GscFileError } from './types';

export interface GscInputFile {
  /** The upload's name, or the entry's path inside a zip ("export-2/Table.csv"). */
  name: string;
  bytes: Uint8Array;
}

export interface GroupOptions {
  /**
   * Set for the entries of one zip: a file that is no Search Console export is then listed as ignored
   * (zips carry other files), and a zip with no export at all is an error named after it. Files
   * uploaded one by one were chosen by the user, so an unrecognised one is an error.
   */
  zipName?: string;
  /** One folder of the zip: the zip as a whole decides whether it holds an export (lib/gsc/zip.ts). */
  isPartOfZip?: boolean;
  limits?: Partial<ParseLimits>;
}

export interface GroupResult {
  exports: GscExport[];
  ignored: IgnoredFile[];
  /** Files that could not be read or placed; the caller refuses the import when there is any. */
  errors: GscFileError[];
}

export function groupGscFiles(files: readonly GscInputFile[], options: GroupOptions = {}): GroupResult {
  const ignored: IgnoredFile[] = [];
  const errors: GscFileError[] = [];
  const folders = new Map<string, GscFile[]>();
  const digests = new Map<GscFile, string>();
  for (const input of files) {
    let file: GscFile;
    try {
      file = parseGscFile(input.name, input.bytes, options.limits);
    } catch (error) {
      if (!(error instanceof GscFileError)) throw error;
      if (options.zipName !== undefined && error.isUnrecognised) {
        ignored.push({
          name: input.name,
          reason: error.problems[0]?.message ?? 'not a Search Console export',
        });
      } else errors.push(error);
      continue;
    }
    const digest = createHash('sha256').update(input.bytes).digest('hex');
    const folder = folderOf(input.name);
    const inFolder = folders.get(folder) ?? [];
    // The same rows uploaded twice (a copy of a file) are one file. Header-only files are alike in
    // every export (an empty Non-critical issues.csv), so they are left to pair with their own.
    const twin = file.rows.length > 0 ? inFolder.find((other) => digests.get(other) === digest) : undefined;
    if (twin) {
      ignored.push({ name: input.name, reason: `the same content as ${twin.name}` });
      continue;
    }
    digests.set(file, digest);
    folders.set(folder, [...inFolder, file]);
  }
  const context: GroupContext = { ignored, errors, digests };
  const exports: GscExport[] = [];
  for (const [folder, inFolder] of folders) {
    for (const group of splitByName(inFolder)) exports.push(...exportsOf(folder, group, context));
  }
  if (options.zipName !== undefined && !options.isPartOfZip && exports.length === 0 && errors.length === 0) {
    errors.push(
      new GscFileError(options.zipName, [
        {
          line: null,
          message: `the zip holds no Search Console export (${ignored.map((f) => `${f.name}: ${f.reason}`).join('; ')})`,
        },
      ]),
    );
  }
  exports.sort((a, b) => a.folder.localeCompare(b.folder) || a.kind.localeCompare(b.kind));
  return { exports, ignored, errors };
}

interface GroupContext {
  ignored: IgnoredFile[];
  errors: GscFileError[];
  digests: Map<GscFile, string>;
}

function folderOf(name: string): string {
  const dir = path.posix.dirname(name.replace(/\\/g, '/'));
  return dir === '.' ? '' : dir;
}

/** The part of an export that a file plays; two files of one role cannot be in one export. */
function roleOf(file: GscFile): string | null {
  if (file.kind === 'issues') return `issues:${file.severity}`;
  if (file.kind === 'metadata') return descriptionOf(file).issue === null ? 'metadata' : 'metadata:issue';
  if (file.kind === 'sitemaps' || file.kind === 'performance-pages') return null;
  return file.kind;
}

// Search Console's own names, which a user keeps around a prefix or suffix: "404 Table.csv",
// "Metadata (1).csv".
const KIND_WORDS = /\b(?:non critical issues|critical issues|table|chart|metadata)\b/g;

function pairingKeyOf(name: string): string {
  const stem = path.posix.basename(name.replace(/\\/g, '/')).replace(/\.[^.]*$/, '');
  return normaliseName(stem)
    .replace(KIND_WORDS, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A folder is one export (or an overview and a drilldown side by side) unless a role occurs twice:
 * then the files are paired by what is left of their names without Search Console's words, so two
 * downloads ("Table.csv", "Table (1).csv") or two renamed exports ("404 Table.csv", "canonical
 * Table.csv") in one upload stay apart. A folder whose files were renamed freely stays one group.
 */
function splitByName(files: GscFile[]): GscFile[][] {
  const roles = files.map(roleOf).filter((role) => role !== null);
  if (new Set(roles).size === roles.length) return [files];
  const groups = new Map<string, GscFile[]>();
  for (const file of files) {
    const key = pairingKeyOf(file.name);
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  return [...groups.values()];
}

const METADATA_KEYS: Record<string, keyof Omit<ExportDescription, 'other'>> = {
  issue: 'issue',
  problem: 'issue',
  probleme: 'issue',
  problema: 'issue',
  sitemap: 'sitemap',
  source: 'source',
  quelle: 'source',
  fuente: 'source',
  origen: 'source',
  property: 'property',
  eigenschaft: 'property',
  propriete: 'property',
  propiedad: 'property',
};

function descriptionOf(metadata: GscFileOf<'metadata'> | null): ExportDescription {
  const description: ExportDescription = {
    issue: null,
    sitemap: null,
    source: null,
    property: null,
    other: {},
  };
  for (const row of metadata?.rows ?? []) {
    description.other[row.property] = row.value;
    const key = METADATA_KEYS[normaliseName(row.property)];
    if (key && description[key] === null && row.value !== '') description[key] = row.value;
  }
  return description;
}

function exportsOf(folder: string, files: GscFile[], context: GroupContext): GscExport[] {
  const { ignored, errors, digests } = context;
  const where = folder === '' ? 'the upload' : `folder '${folder}'`;
  const of = <K extends GscFile['kind']>(kind: K) => files.filter((f): f is GscFileOf<K> => f.kind === kind);
  /** One file per role; a second one cannot be told apart, so it is refused rather than guessed. */
  const single = <T extends GscFile>(candidates: T[], role: string): T | null => {
    const first = candidates[0];
    for (const extra of candidates.slice(1)) {
      if (first && digests.get(extra) === digests.get(first)) {
        ignored.push({ name: extra.name, reason: `the same content as ${first.name}` });
        continue;
      }
      errors.push(
        new GscFileError(extra.name, [
          {
            line: null,
            message: `a second ${role} in ${where} (besides ${candidates[0]?.name}); put each export in its own folder or upload it separately`,
          },
        ]),
      );
    }
    return candidates[0] ?? null;
  };
  const issues = of('issues');
  const hasOverview = of('overview-chart').length > 0 || issues.length > 0;
  const hasDrilldown = of('drilldown-table').length > 0 || of('drilldown-chart').length > 0;
  // A drilldown's Metadata names its issue; an overview's does not. Without an Issue row the file goes
  // to the overview when there is one (firstserveseattle's folder holds both kinds of export).
  const metadata = of('metadata');
  const isDrilldownMetadata = (m: GscFileOf<'metadata'>) =>
    descriptionOf(m).issue !== null || (hasDrilldown && !hasOverview);
  const exports: GscExport[] = [];
  let drilldown: DrilldownExport | null = null;
  if (hasDrilldown) {
    const table = single(of('drilldown-table'), 'drilldown table (URL, Last crawled)');
    const chart = single(of('drilldown-chart'), 'drilldown chart (Date, Affected pages)');
    const meta = single(metadata.filter(isDrilldownMetadata), 'Metadata.csv with an Issue row');
    drilldown = drilldownOf(folder, table, chart, meta);
    exports.push(drilldown);
  }
  if (hasOverview) {
    const critical = single(
      issues.filter((f) => f.severity === 'critical'),
      'Critical issues file',
    );
    const nonCritical = single(
      issues.filter((f) => f.severity === 'non-critical'),
      'Non-critical issues file',
    );
    const chart = single(of('overview-chart'), 'overview chart (Date, Not indexed, Indexed)');
    const meta = single(
      metadata.filter((m) => !isDrilldownMetadata(m)),
      'Metadata.csv without an Issue row',
    );
    exports.push(overviewOf(folder, critical, nonCritical, chart, meta, drilldown));
  }
  if (!hasDrilldown && !hasOverview) {
    for (const m of metadata)
      ignored.push({ name: m.name, reason: `no export in ${where} for it to describe` });
  }
  for (const sitemaps of of('sitemaps')) {
    exports.push({
      kind: 'sitemaps',
      folder,
      files: [sitemaps.name],
      description: descriptionOf(null),
      warnings: [],
      sitemaps,
    });
  }
  for (const pages of of('performance-pages')) {
    exports.push({
      kind: 'performance',
      folder,
      files: [pages.name],
      description: descriptionOf(null),
      warnings: [],
      pages,
    });
  }
  return exports;
}

function baseName(name: string): string {
  return path.posix.basename(name.replace(/\\/g, '/'));
}

function namesOf(...files: (GscFile | null)[]): string[] {
  return files.flatMap((f) => (f ? [f.name] : []));
}

function lastCount<T>(rows: readonly T[], count: (row: T) => number | null): number | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const value = count(rows[i] as T);
    if (value !== null) return value;
  }
  return null;
}

function drilldownOf(
  folder: string,
  table: GscFileOf<'drilldown-table'> | null,
  chart: GscFileOf<'drilldown-chart'> | null,
  metadata: GscFileOf<'metadata'> | null,
): DrilldownExport {
  const warnings: string[] = [];
  const chartTotal = chart ? lastCount(chart.rows, (row) => row.affectedPages) : null;
  const listed = table?.rows.length ?? 0;
  const isTruncated = table !== null && chartTotal !== null && listed < chartTotal;
  if (!metadata) warnings.push('no Metadata.csv: which issue and sitemap the export covers is unknown');
  if (!table) warnings.push('no Table.csv: only the count of affected pages over time is known');
  else if (!chart) warnings.push('no Chart.csv: whether the table lists every affected page is unknown');
  if (isTruncated) {
    warnings.push(
      `the table lists ${listed.toLocaleString('en')} of the ${chartTotal?.toLocaleString('en')} affected pages (Search Console exports at most 1,000 rows)`,
    );
  } else if (table && chartTotal !== null && listed > chartTotal) {
    warnings.push(
      `the table lists ${listed.toLocaleString('en')} URLs, more than the chart's last count (${chartTotal.toLocaleString('en')}): were they exported on different days?`,
    );
  }
  return {
    kind: 'drilldown',
    folder,
    files: namesOf(table, chart, metadata),
    description: descriptionOf(metadata),
    warnings,
    table,
    chart,
    metadata,
    chartTotal,
    isTruncated,
  };
}

function overviewOf(
  folder: string,
  critical: GscFileOf<'issues'> | null,
  nonCritical: GscFileOf<'issues'> | null,
  chart: GscFileOf<'overview-chart'> | null,
  metadata: GscFileOf<'metadata'> | null,
  /** The drilldown beside it in the same folder, whose Metadata.csv and Chart.csv are not the overview's. */
  besides: DrilldownExport | null,
): OverviewExport {
  const warnings: string[] = [];
  // The same import lists a Metadata.csv and a Chart.csv of the drilldown: "no Metadata.csv" beside them
  // read as a contradiction, so the warning names whose they are.
  const issue = besides?.description.issue;
  if (!metadata && besides?.metadata) {
    warnings.push(
      `${baseName(besides.metadata.name)} belongs to the drilldown${issue ? ` (${issue})` : ''} and the overview has none of its own, so which sitemap the overview covers is unknown`,
    );
  } else if (!metadata) warnings.push('no Metadata.csv: which sitemap the overview covers is unknown');
  if (!critical) warnings.push('no Critical issues.csv: the reasons pages are not indexed are unknown');
  if (!chart && besides?.chart) {
    warnings.push(
      `${baseName(besides.chart.name)} counts the drilldown's affected pages and the overview has no chart of its own, so the indexed and not-indexed totals are unknown`,
    );
  } else if (!chart) warnings.push('no Chart.csv: the indexed and not-indexed totals are unknown');
  const notIndexed = chart ? lastCount(chart.rows, (row) => row.notIndexed) : null;
  const reasons = critical?.rows.reduce((sum, row) => sum + (row.pages ?? 0), 0) ?? null;
  if (notIndexed !== null && reasons !== null && notIndexed !== reasons) {
    warnings.push(
      `the reasons add up to ${reasons.toLocaleString('en')} pages, the chart's last "Not indexed" count is ${notIndexed.toLocaleString('en')}`,
    );
  }
  return {
    kind: 'overview',
    folder,
    files: namesOf(critical, nonCritical, chart, metadata),
    description: descriptionOf(metadata),
    warnings,
    critical,
    nonCritical,
    chart,
    metadata,
  };
}
