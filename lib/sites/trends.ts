// The site page's trend data (pure): which runs each chart draws, oldest first, the reasons of each list
// (the largest few, the rest in an explicit "other"), and whether the gap and rot charts apply at all.
// The chart components only render what this decides.
import { OTHER_COLOUR, OTHER_KEY, reasonColour } from '@/lib/findings/chart-data';
import { reasonLabel } from '@/lib/findings/format';
import type { SiteRunDto } from './schema';

/** Reasons drawn per list chart; more get one "Other reasons" band (the hidden table lists each). */
export const TREND_REASONS = 6;

export interface TrendPoint {
  /** The run's id. */
  key: string;
  /** When it ran, as the axis shows it. */
  label: string;
}

export interface DeclaredPoint extends TrendPoint {
  declared: number;
}

export interface ReasonSeries {
  /** The reason, or OTHER_KEY. */
  key: string;
  label: string;
  colour: string;
}

export interface ListTrend {
  series: ReasonSeries[];
  /** One row per run: the point, its total and a count per series key. */
  rows: (TrendPoint & { total: number; counts: Record<string, number>; byReason: Record<string, number> })[];
}

export interface GapPoint extends TrendPoint {
  gap: number;
}

export interface RotPoint extends TrendPoint {
  rot: number;
  checked: number;
}

export interface SiteTrends {
  /** Complete runs only: a partial run's count would read as a drop. */
  declared: DeclaredPoint[];
  prune: ListTrend;
  add: ListTrend;
  /** Null when no run has a Search Console gap (the chart is not shown). */
  gap: GapPoint[] | null;
  /** The latest spot-check's rot rate per run; null when no run has one. */
  rot: RotPoint[] | null;
}

function oldestFirst(runs: readonly SiteRunDto[]): SiteRunDto[] {
  return [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

function listTrend(runs: SiteRunDto[], list: 'prune' | 'add', label: (run: SiteRunDto) => string): ListTrend {
  const withList = runs.filter((run) => run.findings !== null);
  const totals = new Map<string, number>();
  for (const run of withList) {
    for (const [reason, n] of Object.entries(run.findings?.[list].byReason ?? {})) {
      if (n > 0) totals.set(reason, (totals.get(reason) ?? 0) + n);
    }
  }
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // An "other" band of one reason says less than the reason itself.
  const shown = ranked.length > TREND_REASONS ? ranked.slice(0, TREND_REASONS - 1) : ranked;
  const shownKeys = new Set(shown.map(([reason]) => reason));
  const series: ReasonSeries[] = shown.map(([reason]) => ({
    key: reason,
    label: reasonLabel(reason),
    colour: reasonColour(reason),
  }));
  const hasOther = ranked.length > shown.length;
  if (hasOther) series.push({ key: OTHER_KEY, label: 'Other reasons', colour: OTHER_COLOUR });
  const rows = withList.map((run) => {
    const byReason = run.findings?.[list].byReason ?? {};
    const counts: Record<string, number> = {};
    for (const entry of series) counts[entry.key] = 0;
    for (const [reason, n] of Object.entries(byReason)) {
      const key = shownKeys.has(reason) ? reason : OTHER_KEY;
      counts[key] = (counts[key] ?? 0) + n;
    }
    return { key: run.id, label: label(run), total: run.findings?.[list].total ?? 0, counts, byReason };
  });
  return { series, rows };
}

/** The trends of a site's runs (any order in; oldest first out). `label` names a run on the axis. */
export function prepareSiteTrends(
  runs: readonly SiteRunDto[],
  label: (run: SiteRunDto) => string,
): SiteTrends {
  const ordered = oldestFirst(runs);
  const gap = ordered
    .filter((run) => run.gapPercent !== null)
    .map((run) => ({ key: run.id, label: label(run), gap: run.gapPercent ?? 0 }));
  const rot = ordered.flatMap((run) =>
    run.spotCheck && run.spotCheck.rotPercent !== null
      ? [{ key: run.id, label: label(run), rot: run.spotCheck.rotPercent, checked: run.spotCheck.checked }]
      : [],
  );
  return {
    declared: ordered
      .filter((run) => run.complete)
      .map((run) => ({ key: run.id, label: label(run), declared: run.declaredUrls })),
    prune: listTrend(ordered, 'prune', label),
    add: listTrend(ordered, 'add', label),
    gap: gap.length > 0 ? gap : null,
    rot: rot.length > 0 ? rot : null,
  };
}
