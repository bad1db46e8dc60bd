// The per-sitemap gap table's DTOs and their assembly from the grouped counts, the files, the Sitemaps
// report and the overview chart. Pure and isomorphic: the API, the audit page,
// the shared report and its PDF all read these shapes.
import { type NormalizationProfile, normalizeUrl } from '@/lib/urls/normalize';
import { type GapBand, type GapBasis, gapOf, isFetchProblem, isStale } from './gap-stats';

export interface ReasonCount {
  /** lib/findings/evidence/gsc-reasons.ts's bucket (or an inspection's), null when the source gave none. */
  bucket: string | null;
  /** Search Console's words: a drill-down's issue, an inspection's coverage state. */
  reason: string | null;
  count: number;
}

export interface GapFlags {
  /** Google last read the sitemap more than 14 days before the Sitemaps report was imported. */
  stale: boolean;
  /** The report's status is anything but success. */
  fetchProblem: boolean;
  /** A Sitemaps report was imported and lists neither the file nor an index above it. */
  notInSearchConsole: boolean;
}

export interface SitemapGapDto {
  /** The file's URL (its upload name when it was uploaded). */
  sitemap: string;
  fileId: number;
  /** Distinct declared keys of the file. */
  submitted: number;
  indexed: number;
  notIndexed: number;
  /** Most URLs first. */
  notIndexedByReason: ReasonCount[];
  unknown: number;
  /** Keys of the file URL Inspection inspected (the sample behind an estimate). */
  sampled: number;
  /** Fractions (0.25 = 25 %): gapPct = notIndexed / submitted; gapLow/gapHigh the estimate's 95 % interval. */
  gapPct: number | null;
  gapLow: number | null;
  gapHigh: number | null;
  /** The share the band judges (the estimate's point value, or gapPct). */
  gapJudged: number | null;
  band: GapBand | null;
  basis: GapBasis;
  /** From the Sitemaps report line of the file (or of the index above it: reportLine 'index'). */
  lastRead: string | null;
  status: string | null;
  submittedOn: string | null;
  reportLine: 'file' | 'index' | null;
  flags: GapFlags;
}

export interface ChartPoint {
  date: string;
  indexed: number | null;
  notIndexed: number | null;
}

export interface PropertyTotals {
  /** The chart's last day with counts, and its counts. */
  date: string | null;
  indexed: number | null;
  notIndexed: number | null;
  /** Distinct URLs the imports and inspections name one by one. */
  named: number;
  /** named / (indexed + notIndexed), at most 1; null without counts. */
  coverage: number | null;
  /** The chart's days, oldest first (the last MAX_CHART_POINTS of them). */
  series: ChartPoint[];
  seriesTruncated: boolean;
  importedAt: string;
}

export interface GscGapsDto {
  /** Whether anything was imported or inspected at all (the empty state otherwise). */
  hasData: boolean;
  /** The succeeded imports this answer was read after (importsSignatureOf): the page reads the gaps
   * again whenever the imports list shows another one, however it ended or was started. */
  importsSignature: string;
  /** Files with declared entries, largest judged gap first. */
  sitemaps: SitemapGapDto[];
  property: PropertyTotals | null;
  /** The day the Sitemaps report the flags come from was imported; null: none was. */
  sitemapReportOn: string | null;
}

/** "count:newest id" of the succeeded imports of a list ordered newest first, as the API's
 * importsSignature is written (lib/gsc/gaps/data.ts). */
export function importsSignatureOf(imports: readonly { id: string; status: string }[]): string {
  const succeeded = imports.filter((i) => i.status === 'succeeded');
  return `${succeeded.length}:${succeeded[0]?.id ?? ''}`;
}

/** Search Console keeps 16 months of days; a chart is bounded at this many points, and says so. */
export const MAX_CHART_POINTS = 500;

export interface CountRow {
  fileId: number;
  state: 'indexed' | 'not_indexed' | null;
  bucket: string | null;
  reason: string | null;
  sampled: boolean;
  count: number;
}

export interface FileRow {
  id: number;
  parentId: number | null;
  url: string | null;
  finalUrl: string | null;
  uploadName: string | null;
  entries: number;
}

export interface ReportRow {
  sitemap: string;
  submitted: string | null;
  lastRead: string | null;
  status: string | null;
}

interface Tally {
  submitted: number;
  indexed: number;
  notIndexed: number;
  sampled: number;
  sampledNotIndexed: number;
  reasons: Map<string, ReasonCount>;
}

function tallies(counts: readonly CountRow[]): Map<number, Tally> {
  const byFile = new Map<number, Tally>();
  for (const row of counts) {
    let t = byFile.get(row.fileId);
    if (!t) {
      t = { submitted: 0, indexed: 0, notIndexed: 0, sampled: 0, sampledNotIndexed: 0, reasons: new Map() };
      byFile.set(row.fileId, t);
    }
    t.submitted += row.count;
    if (row.sampled && row.state !== null) t.sampled += row.count;
    if (row.state === 'indexed') t.indexed += row.count;
    if (row.state === 'not_indexed') {
      t.notIndexed += row.count;
      if (row.sampled) t.sampledNotIndexed += row.count;
      const key = `${row.bucket}\u0000${row.reason}`;
      const reason = t.reasons.get(key) ?? { bucket: row.bucket, reason: row.reason, count: 0 };
      reason.count += row.count;
      t.reasons.set(key, reason);
    }
  }
  return byFile;
}

/** The report line of each file: its own (URL exact, then the audit's key of it), else its nearest index's. */
function reportLines(
  files: readonly FileRow[],
  report: readonly ReportRow[],
  profile: NormalizationProfile,
): Map<number, { line: ReportRow; via: 'file' | 'index' }> {
  const exact = new Map<string, ReportRow>();
  const byKey = new Map<string, ReportRow>();
  for (const line of report) {
    if (!exact.has(line.sitemap.trim())) exact.set(line.sitemap.trim(), line);
    const key = normalizeUrl(line.sitemap.trim(), profile);
    if (key !== null && !byKey.has(key)) byKey.set(key, line);
  }
  // An uploaded file has no URL: the one report line whose URL ends in its name is its line (two such
  // lines, on two hosts say, cannot be told apart, so neither is taken).
  const byName = new Map<string, ReportRow | undefined>();
  for (const line of report) {
    const name = lastSegment(line.sitemap);
    if (name) byName.set(name, byName.has(name) ? undefined : line);
  }
  const own = new Map<number, ReportRow>();
  for (const file of files) {
    const urls = [file.url, file.finalUrl].filter((u): u is string => u !== null);
    const hit =
      urls.map((u) => exact.get(u)).find(Boolean) ??
      urls.map((u) => byKey.get(normalizeUrl(u, profile) ?? '')).find(Boolean) ??
      (urls.length === 0 && file.uploadName ? byName.get(file.uploadName) : undefined);
    if (hit) own.set(file.id, hit);
  }
  const parents = new Map(files.map((f) => [f.id, f.parentId]));
  const result = new Map<number, { line: ReportRow; via: 'file' | 'index' }>();
  for (const file of files) {
    const mine = own.get(file.id);
    if (mine) {
      result.set(file.id, { line: mine, via: 'file' });
      continue;
    }
    // Walk up the index chain (bounded: a tree is shallow, and a cycle cannot loop forever).
    let parent = file.parentId;
    for (let hops = 0; parent !== null && parent !== undefined && hops < 20; hops++) {
      const line = own.get(parent);
      if (line) {
        result.set(file.id, { line, via: 'index' });
        break;
      }
      parent = parents.get(parent) ?? null;
    }
  }
  return result;
}

function lastSegment(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url.trim()).pathname.split('/').pop() ?? '') || null;
  } catch {
    return null;
  }
}

function label(file: FileRow): string {
  return file.url ?? file.uploadName ?? `sitemap file ${file.id}`;
}

export function buildSitemapGaps(input: {
  files: readonly FileRow[];
  counts: readonly CountRow[];
  profile: NormalizationProfile;
  report: { importedOn: string; rows: readonly ReportRow[] } | null;
}): SitemapGapDto[] {
  const byFile = tallies(input.counts);
  const lines = input.report ? reportLines(input.files, input.report.rows, input.profile) : new Map();
  const rows: SitemapGapDto[] = [];
  for (const file of input.files) {
    const t = byFile.get(file.id);
    // An index is not a row (its children are); a file whose every loc failed to parse has nothing to join.
    if (file.entries <= 0 || !t) continue;
    const gap = gapOf(t);
    const match = lines.get(file.id);
    const line: ReportRow | undefined = match?.line;
    rows.push({
      sitemap: label(file),
      fileId: file.id,
      submitted: t.submitted,
      indexed: t.indexed,
      notIndexed: t.notIndexed,
      notIndexedByReason: [...t.reasons.values()].sort(
        (a, b) => b.count - a.count || String(a.reason).localeCompare(String(b.reason)),
      ),
      unknown: gap.unknown,
      sampled: t.sampled,
      gapPct: gap.gapPct,
      gapLow: gap.gapLow,
      gapHigh: gap.gapHigh,
      gapJudged: gap.judged,
      band: gap.band,
      basis: gap.basis,
      lastRead: line?.lastRead ?? null,
      status: line?.status ?? null,
      submittedOn: line?.submitted ?? null,
      reportLine: match?.via ?? null,
      flags: {
        stale: input.report !== null && isStale(line?.lastRead ?? null, input.report.importedOn),
        fetchProblem: isFetchProblem(line?.status ?? null),
        notInSearchConsole: input.report !== null && !match,
      },
    });
  }
  return rows.sort(
    (a, b) => (b.gapJudged ?? -1) - (a.gapJudged ?? -1) || b.submitted - a.submitted || a.fileId - b.fileId,
  );
}

export function buildPropertyTotals(
  chart: { importedAt: string; points: readonly ChartPoint[] } | null,
  named: number,
): PropertyTotals | null {
  if (!chart) return null;
  const last = [...chart.points].reverse().find((p) => p.indexed !== null || p.notIndexed !== null);
  const total = last ? (last.indexed ?? 0) + (last.notIndexed ?? 0) : 0;
  const series = chart.points.slice(-MAX_CHART_POINTS);
  return {
    date: last?.date ?? null,
    indexed: last?.indexed ?? null,
    notIndexed: last?.notIndexed ?? null,
    named,
    coverage: total > 0 ? Math.min(1, named / total) : null,
    series,
    seriesTruncated: series.length < chart.points.length,
    importedAt: chart.importedAt,
  };
}
