'use client';
// The sites list: by host, searched by host or name (`?q=` in the URL, shareable), paged by keyset cursor
// with Previous / Next; each site with its latest run, its active run and its schedules.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { DebouncedInput } from '@/components/ui/debounced-input';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCount } from '@/lib/core/format';
import { useSites } from '@/lib/sites/hooks';
import styles from './site-list.module.css';
import { SiteListRow } from './site-list-row';
import table from './site-table.module.css';

function useSearch(): [string, (q: string) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const q = searchParams.get('q')?.trim() ?? '';
  const setQ = useCallback(
    (next: string) => {
      const params = new URLSearchParams();
      if (next) params.set('q', next);
      const query = params.toString();
      // Next.js keeps useSearchParams in step with the history API: no server round trip.
      window.history.replaceState(null, '', query ? `${pathname}?${query}` : pathname);
    },
    [pathname],
  );
  return [q, setQ];
}

function SitePages({ q, onClear }: { q: string; onClear: () => void }) {
  const stack = useCursorStack();
  const sites = useSites(q, stack.cursor);
  const canCreate = useCan('reviewer');
  const page = sites.data;

  if (sites.isError && !page) return <Alert title="Could not load sites">{sites.error.message}</Alert>;
  if (page && page.total === 0) {
    return (
      <div className="card">
        {q ? (
          <EmptyState
            title="No site matches"
            action={
              <button type="button" className="button" onClick={onClear}>
                Clear search
              </button>
            }
          >
            No site has “{q}” in its host or name.
          </EmptyState>
        ) : (
          <EmptyState
            title="No sites yet"
            action={
              canCreate ? (
                <Link href="/audits/new" className="button button--primary">
                  New audit
                </Link>
              ) : null
            }
          >
            A site appears with its first audit: audit a sitemap URL (or upload one) and its host becomes a
            site you can run again, schedule and follow over time.
          </EmptyState>
        )}
      </div>
    );
  }
  return (
    <div className="card">
      <table className={`table ${table.cards}`} aria-busy={sites.isFetching && sites.isPlaceholderData}>
        <caption className="visually-hidden">Sites by host</caption>
        <thead>
          <tr>
            <th scope="col">Site</th>
            <th scope="col">Runs</th>
            <th scope="col">Latest run</th>
            <th scope="col">Now</th>
          </tr>
        </thead>
        <tbody>
          {sites.isPending ? (
            <tr>
              <td colSpan={4}>
                <div className="skeleton" />
              </td>
            </tr>
          ) : (
            (page?.items ?? []).map((site) => <SiteListRow key={site.id} site={site} />)
          )}
        </tbody>
      </table>
      {page ? (
        <div className={`table__foot ${styles.foot}`}>
          <span data-testid="site-list-total">
            {formatCount(page.total)} site{page.total === 1 ? '' : 's'}
            {q ? ' match' : ''}
          </span>
          <CursorPager stack={stack} nextCursor={page.nextCursor} busy={sites.isPlaceholderData} />
        </div>
      ) : null}
    </div>
  );
}

export function SiteList() {
  const [q, setQ] = useSearch();
  return (
    <div className="stack">
      <search className={styles.filters} aria-label="Search sites">
        <DebouncedInput
          label="Search sites"
          type="search"
          value={q}
          placeholder="Part of a host or name"
          onCommit={setQ}
          className={styles.search}
        />
      </search>
      <SitePages key={q} q={q} onClear={() => setQ('')} />
    </div>
  );
}
