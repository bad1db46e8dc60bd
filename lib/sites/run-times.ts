// A site's runs named by when they started, as the trend charts' axis, the runs table and the diff's header
// show them: day, month and 24-hour time as everywhere else in the app (en-GB, "2 Dec, 00:26"). Runs are
// often minutes or seconds apart (a schedule, Run again), so a name gets its seconds when another run of the
// same list shares its minute, and a run number when they share the second too: no two read the same.

export interface RunTimeOptions {
  /** An IANA zone; the reader's own when absent. */
  timeZone?: string;
  /** "2 Dec 2026, 00:26" rather than "2 Dec, 00:26" (the axis has no room for the year). */
  withYear?: boolean;
}

interface TimedRun {
  id: string;
  createdAt: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(options: RunTimeOptions, withSeconds: boolean): Intl.DateTimeFormat {
  const key = `${options.timeZone ?? ''}|${options.withYear ? 'y' : ''}|${withSeconds ? 's' : ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: options.withYear ? 'numeric' : undefined,
      hour: '2-digit',
      minute: '2-digit',
      second: withSeconds ? '2-digit' : undefined,
      hourCycle: 'h23',
      timeZone: options.timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/** The runs' names, by id, distinct from one another (any order in). */
export function runTimeLabels(runs: readonly TimedRun[], options: RunTimeOptions = {}): Map<string, string> {
  const chronological = [...runs].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  const name = (run: TimedRun, withSeconds: boolean) =>
    formatOf(options, withSeconds).format(new Date(run.createdAt));
  const byMinute = groupBy(chronological, (run) => name(run, false));
  const labels = new Map<string, string>();
  for (const [minute, same] of byMinute) {
    if (same.length === 1) {
      labels.set((same[0] as TimedRun).id, minute);
      continue;
    }
    for (const [second, sameSecond] of groupBy(same, (run) => name(run, true))) {
      sameSecond.forEach((run, index) => {
        labels.set(run.id, sameSecond.length === 1 ? second : `${second} · run ${index + 1}`);
      });
    }
  }
  return labels;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** A run's name without the start time a repeated run's name ends with ("Shop — 2026-12-02 00:32 UTC
 * (scheduled)", written by lib/audit-runs/site-runs.ts): beside the time the page prints anyway, it said it twice. */
export function runBaseName(name: string): string {
  const base = name
    .replace(/ \((re-run|scheduled)\)$/, '')
    // Every stamp: runs made before runs.ts built names from this function kept the old stamp before their
    // own ("Shop — <then> UTC — <now> UTC"); they are still stored so.
    .replace(/(\s+—\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC)+$/, '');
  return base || name;
}
