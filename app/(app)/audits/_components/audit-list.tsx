'use client';
// The audits list: newest first, filtered by status and name (both in the URL), paged by keyset cursor
// with Previous / Next, each audit with its findings, reviewed share and live progress.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { useCan } from '@/app/session-context';
import { auditsTotalText, pageOfText } from '@/components/findings/audit-list-words';
import { Alert } from '@/components/ui/alert';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { EmptyState } from '@/components/ui/empty-state';
import { AUDIT_LIST_PAGE_SIZE, type AuditListFilters, useAudits } from '@/lib/audits/hooks';
import { statusLabel } from '@/lib/audits/labels';
import { AUDIT_STATUSES, type AuditStatus } from '@/lib/audits/schema';
import styles from './audit-list.module.css';
import { AuditListFiltersBar } from './audit-list-filters';
import { AuditListRow } from './audit-list-row';

/** The filters the URL holds; an unknown status is no filter. */
function filtersOf(params: URLSearchParams): AuditListFilters {
  const status = params.get('status');
  const q = params.get('q')?.trim();
  return {
    status: AUDIT_STATUSES.includes(status as AuditStatus) ? (status as AuditStatus) : undefined,
    q: q || undefined,
  };
}

function useListFilters(): [AuditListFilters, (next: AuditListFilters) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const key = searchParams.toString();
  const filters = useMemo(() => filtersOf(new URLSearchParams(key)), [key]);
  const setFilters = useCallback(
    (next: AuditListFilters) => {
      const params = new URLSearchParams();
      if (next.status) params.set('status', next.status);
      if (next.q) params.set('q', next.q);
      const query = params.toString();
      // Next.js keeps useSearchParams in step with the history API: no server round trip.
      window.history.replaceState(null, '', query ? `${pathname}?${query}` : pathname);
    },
    [pathname],
  );
  return [filters, setFilters];
}

/** What the filters asked for, said back: "No failed audit has “shop” in its name." */
function noMatchText({ status, q }: AuditListFilters): string {
  const kind = status ? `${statusLabel(status).toLowerCase()} audit` : 'audit';
  return q ? `No ${kind} has “${q}” in its name.` : `No audit is ${statusLabel(status ?? '').toLowerCase()}.`;
}

function LoadingRows() {
  return (
    <tbody aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <tr key={row}>
          {[0, 1, 2, 3].map((cell) => (
            <td key={cell}>
              <div className="skeleton" />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

/** One filtered list; remounted (back to its first page) whenever the filters change. */
function AuditListPages({ filters, onClear }: { filters: AuditListFilters; onClear: () => void }) {
  const stack = useCursorStack();
  const audits = useAudits(filters, stack.cursor);
  const canCreate = useCan('reviewer');
  const page = audits.data;
  const isFiltered = Boolean(filters.status || filters.q);

  if (audits.isError && !page) return <Alert title="Could not load audits">{audits.error.message}</Alert>;
  if (page && page.total === 0) {
    return (
      <div className="card">
        {isFiltered ? (
          <EmptyState
            title="No audit matches these filters"
            action={
              <button type="button" className="button" onClick={onClear}>
                Clear filters
              </button>
            }
          >
            {noMatchText(filters)}
          </EmptyState>
        ) : (
          <EmptyState
            title="No audits yet"
            action={
              canCreate ? (
                <Link href="/audits/new" className="button button--primary">
                  Create your first audit
                </Link>
              ) : null
            }
          >
            An audit reads your XML sitemaps (and optionally crawls the site or reads a crawl export) so you
            can see what is listed, what was crawled and where they disagree.
          </EmptyState>
        )}
      </div>
    );
  }

  const items = page?.items ?? [];
  return (
    <div className="stack">
      {audits.isError ? (
        <Alert tone="warning" title="Live updates paused">
          {audits.error.message}
        </Alert>
      ) : null}
      <div className="card">
        <table className={`table ${styles.list}`} aria-busy={audits.isFetching && audits.isPlaceholderData}>
          <caption className="visually-hidden">Audits, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Findings</th>
              <th scope="col">Reviewed</th>
            </tr>
          </thead>
          {audits.isPending ? (
            <LoadingRows />
          ) : (
            <tbody>
              {items.map((audit) => (
                <AuditListRow key={audit.id} audit={audit} />
              ))}
            </tbody>
          )}
        </table>
        {page ? (
          <div className={`table__foot ${styles.foot}`}>
            <span data-testid="audit-list-total">{auditsTotalText(page.total, isFiltered)}</span>
            <CursorPager stack={stack} nextCursor={page.nextCursor} busy={audits.isPlaceholderData}>
              <span data-testid="audit-list-page">
                {pageOfText(stack.page, page.total, AUDIT_LIST_PAGE_SIZE)}
              </span>
            </CursorPager>
          </div>
        ) : null}
      </div>
    </div>
  );
}

export function AuditList() {
  const [filters, setFilters] = useListFilters();
  return (
    <div className="stack">
      <AuditListFiltersBar filters={filters} onChange={setFilters} />
      <AuditListPages
        key={`${filters.status ?? ''}|${filters.q ?? ''}`}
        filters={filters}
        onClear={() => setFilters({})}
      />
    </div>
  );
}
