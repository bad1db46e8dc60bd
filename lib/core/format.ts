// Number, size, progress, date and duration formatting for the audit UI; unknown values render as "—".

const countFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return countFormat.format(value);
}

/** A count and its noun in the right number: "1 row", "2 rows", "1 entry" (`many` when not just + "s"). */
export function countText(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
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

/** How much of an audit's findings (every list) is decided: whole percent, rounded down so 100 % means
 * every row; null when there is nothing to review. */
export function reviewedShare(findings: { prune: number; add: number; held: number; decided: number }): {
  decided: number;
  total: number;
  percent: number;
} | null {
  const total = findings.prune + findings.add + findings.held;
  if (total === 0) return null;
  const decided = Math.min(findings.decided, total);
  return { decided, total, percent: Math.floor((decided / total) * 100) };
}
