// The gap charts' data, prepared once for the audit page (Recharts), the shared report
// (server-rendered bars) and the PDF (pdfkit rectangles): which files get a bar, in what order, the labels,
// the band colours, and the indexed / not indexed days. Pure.
import type { GapBand } from './gap-stats';
import { INVESTIGATE_SHARE, PROBLEM_SHARE } from './gap-stats';
import type { PropertyTotals, SitemapGapDto } from './gaps-shape';

/** Bars drawn at most (the largest gaps); the table below the chart lists every file. */
const GAP_BARS = 25;

export const BAND_COLOURS: Record<GapBand, string> = {
  normal: '#2f7d4f',
  investigate: '#b26a00',
  problem: '#b42318',
  insufficient: '#6b7280',
};

export const BAND_LABELS: Record<GapBand, string> = {
  normal: 'Normal',
  investigate: 'Investigate',
  problem: 'Problem',
  insufficient: 'Not enough data',
};

/** Said wherever the bands are explained. */
export const INSUFFICIENT_NOTE =
  'Not enough data: under 10 % of the file’s URLs are known to Search Console’s exports, so its gap says nothing yet; import the drill-downs of its reasons, a Performance Pages.csv, or inspect a sample.';

/** The thresholds as percentages, for reference lines and shaded bands. */
export const BAND_LINES = { investigate: INVESTIGATE_SHARE * 100, problem: PROBLEM_SHARE * 100 };

/** Why the property's totals and a file's counts need not agree: they come from different exports, which
 * may be of different days (or, in a test, of different sites). Said next to the totals everywhere. */
export const PROPERTY_SOURCE =
  'These totals are the last day of the Page indexing chart; the counts per sitemap file come from the URLs the imports name one by one (drilldown tables, Performance pages, URL Inspection), so the two need not agree.';

export interface GapBar {
  key: string;
  fileId: number;
  /** The file's last path segment (or the whole name), for a narrow axis. */
  label: string;
  /** The whole URL or upload name. */
  title: string;
  /** Percentages 0–100: the judged gap, and the interval when estimated. */
  gap: number;
  low: number | null;
  high: number | null;
  band: GapBand;
  basis: SitemapGapDto['basis'];
}

export interface GapBarsData {
  bars: GapBar[];
  /** Files with a gap left out of the chart (the smallest ones). */
  folded: number;
  /** Files with too little known to draw (band insufficient): listed in the table, not drawn. */
  insufficient: number;
  isEmpty: boolean;
}

export function shortSitemapName(name: string): string {
  try {
    const url = new URL(name);
    return decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? url.host) || url.host;
  } catch {
    return name;
  }
}

const pct = (x: number | null) => (x === null ? null : Math.round(x * 10000) / 100);

/** A bar per file with a gap, largest first (the rows come sorted), at most `top`. */
export function prepareGapBars(rows: readonly SitemapGapDto[], top = GAP_BARS): GapBarsData {
  // A file without enough data has a gap of next to nothing that means nothing: a bar would read as "fine".
  const withGap = rows.filter((r) => r.gapJudged !== null && r.band !== null && r.band !== 'insufficient');
  const insufficient = rows.filter((r) => r.band === 'insufficient').length;
  const bars = withGap.slice(0, top).map(
    (r): GapBar => ({
      key: String(r.fileId),
      fileId: r.fileId,
      label: shortSitemapName(r.sitemap),
      title: r.sitemap,
      gap: pct(r.gapJudged) ?? 0,
      low: pct(r.gapLow),
      high: pct(r.gapHigh),
      band: r.band ?? 'normal',
      basis: r.basis,
    }),
  );
  return { bars, folded: withGap.length - bars.length, insufficient, isEmpty: bars.length === 0 };
}

export interface IndexPoint {
  date: string;
  indexed: number | null;
  notIndexed: number | null;
}

/** The chart's days with at least one count (Search Console's first days are empty). */
export function prepareIndexSeries(property: PropertyTotals | null): IndexPoint[] {
  if (!property) return [];
  return property.series.filter((p) => p.indexed !== null || p.notIndexed !== null);
}

export interface IndexAxes {
  /** The scale's top: a round number at or above every count. */
  top: number;
  /** Counts to draw a line and a label at, 0 first. */
  yTicks: number[];
  /** Days to label under the chart, by their index in the points: the first, the last, evenly between. */
  xTicks: { index: number; date: string }[];
}

/** 1, 2 or 5 times a power of ten: the step of a scale a reader can read at a glance. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw) ?? 10;
  return step * power;
}

/** The scale and date labels of the server-drawn "indexed and not indexed over time" chart. */
export function indexAxes(points: readonly IndexPoint[], dates = 4): IndexAxes {
  const max = Math.max(1, ...points.flatMap((p) => [p.indexed ?? 0, p.notIndexed ?? 0]));
  // Pages are whole: a scale of 0.5 steps would label half pages.
  const step = Math.max(1, roundStep(max / 4));
  const top = Math.ceil(max / step) * step;
  const yTicks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  const last = points.length - 1;
  const indexes =
    last <= 0
      ? [0]
      : [...new Set(Array.from({ length: dates }, (_, i) => Math.round((i * last) / (dates - 1))))];
  const xTicks =
    points.length === 0 ? [] : indexes.map((index) => ({ index, date: points[index]?.date ?? '' }));
  return { top, yTicks, xTicks };
}

/** "12.3 %" (one decimal under 10 %, none above), "—" for no value. */
export function formatShare(share: number | null): string {
  if (share === null) return '—';
  const p = share * 100;
  return `${p.toFixed(p > 0 && p < 10 ? 1 : 0)} %`;
}

/** The gap as the table writes it: "30 %" or "≈ 45 % (32–58 %)" for an estimate. */
export function formatGap(
  row: Pick<SitemapGapDto, 'gapPct' | 'gapJudged' | 'gapLow' | 'gapHigh' | 'basis'>,
): string {
  if (row.basis === 'estimate' && row.gapJudged !== null) {
    return `≈ ${formatShare(row.gapJudged)} (${formatShare(row.gapLow).replace(' %', '')}–${formatShare(row.gapHigh)})`;
  }
  return formatShare(row.gapPct);
}

/** The flags as words, for tables and the PDF. */
export function flagWords(row: Pick<SitemapGapDto, 'flags'>): string[] {
  const words: string[] = [];
  if (row.flags.fetchProblem) words.push('fetch problem');
  if (row.flags.stale) words.push('not read for 14+ days');
  if (row.flags.notInSearchConsole) words.push('not in Search Console');
  return words;
}
