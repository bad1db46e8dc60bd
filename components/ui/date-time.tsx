'use client';
// Dates and times as the page shows them. The audit page is rendered on the server (its first data comes with
// the HTML), where the reader's time zone is unknown: a time formatted there in the server's zone and again in
// the browser's would differ, and React would throw the server's HTML away (a hydration mismatch). So the
// server and the hydrating browser both print UTC, marked as such, and the browser switches to the reader's own
// zone right after (useSyncExternalStore's server snapshot is what hydration uses).
import { useSyncExternalStore } from 'react';
import { formatDateTime } from '@/lib/core/format';

const neverChanges = () => () => {};

/** A formatter of ISO instants: "1 Dec 2026, 09:30 UTC" until hydrated, then the reader's local time. */
export function useDateTimeFormat(): (iso: string | null | undefined) => string {
  const isHydrated = useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
  return isHydrated
    ? (iso) => formatDateTime(iso)
    : (iso) => (iso ? `${formatDateTime(iso, 'UTC')} UTC` : '—');
}

/** An instant in a <time> element, formatted by useDateTimeFormat. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const format = useDateTimeFormat();
  return <time dateTime={iso ?? undefined}>{format(iso)}</time>;
}
