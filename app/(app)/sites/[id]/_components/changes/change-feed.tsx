'use client';
// The change feed: events between consecutive complete runs, newest first, filtered by type (chips with
// their counts), a start date and part of the URL, all in the URL beside `?tab=changes`; "Load more" reads
// the next page. Each event says what changed: lastmod previous → current, removal pending or confirmed.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useId, useMemo } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { DebouncedInput } from '@/components/ui/debounced-input';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import chipStyles from '@/components/ui/filter-chips.module.css';
import { formatCount } from '@/lib/core/format';
import { formatLastmod } from '@/lib/findings/format';
import { useSiteChanges } from '@/lib/sites/hooks';
import { runTimeLabels } from '@/lib/sites/run-times';
import { CHANGE_TYPES, type ChangeType, type SiteChangeDto, type SiteDetailDto } from '@/lib/sites/schema';
import list from '../change-list.module.css';
import { CHANGE_HINTS, CHANGE_LABELS } from '../labels';
import styles from './change-feed.module.css';
import { feedFilters, feedQuery } from './feed-filters';

const TONES: Record<ChangeType, BadgeTone> = {
  url_added: 'success',
  url_lastmod_changed: 'info',
  url_removed_pending: 'warning',
  url_removed_confirmed: 'danger',
  url_moved: 'info',
};

function useFeedFilters() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const key = searchParams.toString();
  const filters = useMemo(() => feedFilters(new URLSearchParams(key)), [key]);
  const set = useCallback(
    (next: { type?: ChangeType; sinceDate?: string; q?: string }) => {
      window.history.replaceState(null, '', `${pathname}?${feedQuery(next)}`);
    },
    [pathname],
  );
  return [filters, set] as const;
}

function ChangeDetail({ change }: { change: SiteChangeDto }) {
  switch (change.type) {
    case 'url_lastmod_changed':
      return (
        <>
          lastmod {formatLastmod(change.previousLastmod)} →{' '}
          <strong>{formatLastmod(change.currentLastmod)}</strong>
        </>
      );
    case 'url_added':
      return <>{change.currentLastmod ? `New, lastmod ${formatLastmod(change.currentLastmod)}` : 'New'}</>;
    case 'url_moved':
      return change.target ? (
        <>
          now redirects to <span className={list.url}>{change.target}</span>
        </>
      ) : (
        CHANGE_HINTS[change.type]
      );
    default:
      return <>{CHANGE_HINTS[change.type]}</>;
  }
}

export function ChangeFeed({ site }: { site: SiteDetailDto }) {
  const [filters, setFilters] = useFeedFilters();
  const sinceId = useId();
  const formatTime = useDateTimeFormat();
  const changes = useSiteChanges(site.id, filters, site.lastCompleteAuditId);
  const counts = changes.data?.counts;
  const items = changes.data?.items ?? [];
  // Runs named as the runs table names them (seconds when two share a minute).
  const runName = runTimeLabels(site.runs, { withYear: true });
  const isFiltered = Boolean(filters.type || filters.since || filters.q);

  return (
    <section className="card" aria-labelledby="site-changes-title">
      <div className="card__header">
        <h2 id="site-changes-title">Changes</h2>
        <span className="muted small">Between consecutive complete runs, newest first</span>
      </div>
      <div className="card__body stack">
        <search className={styles.filters} aria-label="Filter changes">
          <fieldset className={chipStyles['reason-chips']}>
            <legend className="visually-hidden">Type of change</legend>
            <button
              type="button"
              className={chipStyles['filter-chip']}
              aria-pressed={!filters.type}
              onClick={() => setFilters({ ...filters, type: undefined })}
            >
              All
              <span className={chipStyles['filter-chip__n']}>
                {counts ? formatCount(CHANGE_TYPES.reduce((sum, type) => sum + counts[type], 0)) : '…'}
              </span>
            </button>
            {CHANGE_TYPES.map((type) => (
              <button
                key={type}
                type="button"
                className={chipStyles['filter-chip']}
                aria-pressed={filters.type === type}
                data-testid={`change-chip-${type}`}
                onClick={() => setFilters({ ...filters, type: filters.type === type ? undefined : type })}
              >
                {CHANGE_LABELS[type]}
                <span className={chipStyles['filter-chip__n']} data-testid={`change-count-${type}`}>
                  {counts ? formatCount(counts[type]) : '…'}
                </span>
              </button>
            ))}
          </fieldset>
          <div className={styles.row}>
            <Field label="Since (UTC day)" id={sinceId} size="small">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  className="input input--small"
                  value={filters.sinceDate ?? ''}
                  onChange={(event) => setFilters({ ...filters, sinceDate: event.target.value || undefined })}
                />
              )}
            </Field>
            <DebouncedInput
              label="URL contains"
              type="search"
              value={filters.q ?? ''}
              placeholder="Part of a URL"
              onCommit={(q) => setFilters({ ...filters, q: q || undefined })}
              className={styles.search}
            />
          </div>
        </search>
        {changes.isError && !changes.data ? (
          <Alert title="Could not load the changes">{changes.error.message}</Alert>
        ) : changes.isPending ? (
          <div className="skeleton" style={{ height: '6rem' }} aria-hidden="true" />
        ) : items.length === 0 ? (
          <EmptyState title={isFiltered ? 'No change matches' : 'No changes yet'}>
            {isFiltered
              ? 'No change event matches these filters.'
              : 'The first complete run is the baseline; changes appear from the second complete run on.'}
          </EmptyState>
        ) : (
          <ol className={list.list} data-testid="change-feed" aria-busy={changes.isFetching}>
            {items.map((change) => (
              <li key={change.id} className={list.item} data-testid="change" data-type={change.type}>
                <span className={list.head}>
                  <Badge tone={TONES[change.type]} dot={false}>
                    {CHANGE_LABELS[change.type]}
                  </Badge>
                  <span className={list.url}>{change.url}</span>
                </span>
                <span className="small change-feed__detail">
                  <ChangeDetail change={change} />
                  <span className="muted">
                    {' · '}
                    {change.auditId ? (
                      <Link href={`/audits/${change.auditId}`}>
                        run of {runName.get(change.auditId) ?? formatTime(change.createdAt)}
                      </Link>
                    ) : (
                      formatTime(change.createdAt)
                    )}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        )}
        {changes.hasNextPage ? (
          <button
            type="button"
            className="button"
            disabled={changes.isFetchingNextPage}
            onClick={() => void changes.fetchNextPage()}
          >
            {changes.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        ) : null}
      </div>
    </section>
  );
}
