// Chart data for the findings summary: which bars and series to draw, their labels and colours, top-N with
// an explicit "other" bucket, and what to do with missing values. The chart components only render this.
import { listLabel, reasonLabel } from './format';
import { type FindingList, type FindingsSummary, HELD_REASONS, LISTS, PRUNE_REASONS } from './schema';

export const OTHER_KEY = '__other';
export const OTHER_COLOUR = '#9ca3af';

const REASON_COLOURS: Record<string, string> = {
  unreached_by_crawl: '#4f46e5',
  url_variant: '#0891b2',
  blocked_by_robots: '#9333ea',
  no_response: '#475569',
  redirects: '#d97706',
  non_canonical: '#0d9488',
  noindex: '#65a30d',
  newer_than_crawl: '#2563eb',
  section_not_crawled: '#a16207',
  crawl_mismatch: '#be185d',
  canonical_conflict: '#0f766e',
  canonical_pattern: '#6d28d9',
  reachable_not_declared: '#16a34a',
};
// Reds for 4xx and oranges-browns for 5xx, picked by status so a status keeps its colour everywhere.
const HTTP_4XX = ['#dc2626', '#b91c1c', '#f87171', '#7f1d1d'] as const;
const HTTP_5XX = ['#c2410c', '#ea580c', '#9a3412', '#fb923c'] as const;
const FALLBACK = ['#db2777', '#7c3aed', '#0369a1', '#4d7c0f', '#be123c', '#57534e'] as const;

function pick(palette: readonly string[], index: number): string {
  return palette[Math.abs(index) % palette.length] ?? OTHER_COLOUR;
}

/** One fixed colour per reason, so the same reason looks the same in every chart. */
export function reasonColour(reason: string | null): string {
  if (reason === null || reason === OTHER_KEY) return OTHER_COLOUR;
  const known = REASON_COLOURS[reason];
  if (known) return known;
  const http = /^http_(\d{3})$/.exec(reason);
  if (http) {
    const status = Number(http[1]);
    return status >= 500 ? pick(HTTP_5XX, status) : pick(HTTP_4XX, status);
  }
  let hash = 0;
  for (const char of reason) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return pick(FALLBACK, hash);
}

/** Position of a reason in the documented precedence (http_<status> takes http_4xx_5xx's place). */
function precedence(reason: string): number {
  const order: readonly string[] = [...PRUNE_REASONS, ...HELD_REASONS];
  const index = order.indexOf(/^http_\d{3}$/.test(reason) ? 'http_4xx_5xx' : reason);
  return index === -1 ? order.length : index;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Positive counts only, largest first; ties keep the documented reason order, then the name. */
export function rankReasons(byReason: Record<string, unknown> | null | undefined): [string, number][] {
  return Object.entries(byReason ?? {})
    .map(([reason, value]): [string, number] => [reason, count(value)])
    .filter(([, value]) => value > 0)
    .sort(([a, x], [b, y]) => y - x || precedence(a) - precedence(b) || a.localeCompare(b));
}

// ── Reasons per list ─────────────────────────────────────────────────────────────────────────────

export interface ReasonBar {
  /** Unique across lists: `prune:http_404`, `prune:__other`. */
  key: string;
  list: FindingList;
  /** null for the "other reasons" bucket. */
  reason: string | null;
  label: string;
  /** Category-axis text: the list and the reason. */
  axisLabel: string;
  count: number;
  colour: string;
}

export interface ReasonsPerListData {
  bars: ReasonBar[];
  /** Lists that have no findings at all (shown as a note rather than as empty bars). */
  emptyLists: FindingList[];
  /** Reasons folded into an "other" bar, all lists together. */
  foldedReasons: number;
  isEmpty: boolean;
}

/** One bar per reason, grouped by list (prune, add, held), at most `top` bars per list. */
export function prepareReasonsPerList(
  summary: FindingsSummary | null | undefined,
  { top = 8 }: { top?: number } = {},
): ReasonsPerListData {
  const limit = Math.max(1, Math.floor(top));
  const bars: ReasonBar[] = [];
  const emptyLists: FindingList[] = [];
  let foldedReasons = 0;
  for (const list of LISTS) {
    const reasons = rankReasons(summary?.[list]?.byReason);
    if (reasons.length === 0) {
      emptyLists.push(list);
      continue;
    }
    // Folding a single reason into "other" would hide it for nothing: show it instead.
    const shown = reasons.length > limit ? reasons.slice(0, limit - 1) : reasons;
    const rest = reasons.slice(shown.length);
    const name = listLabel(list);
    for (const [reason, value] of shown) {
      const label = reasonLabel(reason);
      bars.push({
        key: `${list}:${reason}`,
        list,
        reason,
        label,
        axisLabel: `${name} · ${label}`,
        count: value,
        colour: reasonColour(reason),
      });
    }
    if (rest.length > 0) {
      foldedReasons += rest.length;
      const label = `Other reasons (${rest.length})`;
      bars.push({
        key: `${list}:${OTHER_KEY}`,
        list,
        reason: null,
        label,
        axisLabel: `${name} · ${label}`,
        count: rest.reduce((sum, [, value]) => sum + value, 0),
        colour: OTHER_COLOUR,
      });
    }
  }
  return { bars, emptyLists, foldedReasons, isEmpty: bars.length === 0 };
}

// ── Reasons per sitemap file ─────────────────────────────────────────────────────────────────────

/** One row of GET /findings/by-file. A null fileId is the server's own "other files" bucket. */
export interface FindingsByFileItem {
  fileId: number | null;
  url: string | null;
  uploadName: string | null;
  byReason: Record<string, number>;
}

export interface ReasonSeries {
  /** The reason, or OTHER_KEY for the folded reasons. */
  key: string;
  label: string;
  colour: string;
}

export interface FileRow {
  key: string;
  /** Short name for the axis (file name); `title` has the full URL. */
  label: string;
  title: string;
  fileId: number | null;
  total: number;
  /** Count per series key; a missing key means 0. */
  values: Record<string, number>;
}

export interface ReasonsPerFileData {
  rows: FileRow[];
  series: ReasonSeries[];
  /** Files folded into the "Other files" row (the server's own bucket counts as one). */
  foldedFiles: number;
  isEmpty: boolean;
}

function fileName(item: FindingsByFileItem): { label: string; title: string } {
  if (item.uploadName) return { label: item.uploadName, title: item.url ?? item.uploadName };
  if (item.url) {
    let label = item.url;
    try {
      const url = new URL(item.url);
      label = url.pathname.split('/').filter(Boolean).pop() ?? url.host;
    } catch {
      // Not a URL after all: show it as given.
    }
    return { label, title: item.url };
  }
  return item.fileId === null
    ? { label: 'Other files', title: 'Other files' }
    : { label: `File #${item.fileId}`, title: `Sitemap file #${item.fileId}` };
}

/** Stacked bars: one row per file (largest `top`, the rest as "Other files"), one series per reason
 * (largest `topReasons`, the rest as "Other reasons"). */
export function prepareReasonsPerFile(
  items: readonly FindingsByFileItem[] | null | undefined,
  { top = 10, topReasons = 8 }: { top?: number; topReasons?: number } = {},
): ReasonsPerFileData {
  const files = (items ?? []).map((item) => ({ item, reasons: rankReasons(item.byReason) }));
  const totals = new Map<string, number>();
  for (const { reasons } of files)
    for (const [reason, value] of reasons) totals.set(reason, (totals.get(reason) ?? 0) + value);
  const ranked = rankReasons(Object.fromEntries(totals));
  const reasonLimit = Math.max(1, Math.floor(topReasons));
  const kept = ranked.length > reasonLimit ? ranked.slice(0, reasonLimit - 1) : ranked;
  const keptSet = new Set(kept.map(([reason]) => reason));
  const series: ReasonSeries[] = kept.map(([reason]) => ({
    key: reason,
    label: reasonLabel(reason),
    colour: reasonColour(reason),
  }));
  if (ranked.length > kept.length)
    series.push({
      key: OTHER_KEY,
      label: `Other reasons (${ranked.length - kept.length})`,
      colour: OTHER_COLOUR,
    });

  const toRow = (
    reasons: [string, number][],
    key: string,
    name: { label: string; title: string },
    fileId: number | null,
  ): FileRow => {
    const values: Record<string, number> = {};
    let total = 0;
    for (const [reason, value] of reasons) {
      const seriesKey = keptSet.has(reason) ? reason : OTHER_KEY;
      values[seriesKey] = (values[seriesKey] ?? 0) + value;
      total += value;
    }
    return { key, label: name.label, title: name.title, fileId, total, values };
  };

  const named = files
    .filter(({ item, reasons }) => item.fileId !== null && reasons.length > 0)
    .map(({ item, reasons }) => toRow(reasons, `file:${item.fileId}`, fileName(item), item.fileId))
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const fileLimit = Math.max(1, Math.floor(top));
  const others = files.filter(({ item, reasons }) => item.fileId === null && reasons.length > 0);
  const overflow = named.length + others.length > fileLimit ? named.slice(fileLimit - 1) : [];
  const rows = named.slice(0, named.length - overflow.length);
  if (overflow.length > 0 || others.length > 0) {
    const merged: [string, number][] = [];
    for (const row of overflow)
      for (const [key, value] of Object.entries(row.values)) merged.push([key, value]);
    for (const { reasons } of others) merged.push(...reasons);
    const otherRow = toRow(merged, OTHER_KEY, { label: 'Other files', title: 'Other files' }, null);
    // Series keys from folded rows are already OTHER_KEY or kept reasons; toRow maps them again safely.
    rows.push(otherRow);
  }
  return {
    rows,
    series: series.filter((s) => rows.some((row) => (row.values[s.key] ?? 0) > 0)),
    foldedFiles: overflow.length + others.length,
    isEmpty: rows.length === 0,
  };
}
