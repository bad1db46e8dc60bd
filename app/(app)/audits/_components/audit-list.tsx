'use client';
// The audits table: newest first, live status while audits run, "Load more" by cursor.
import Link from 'next/link';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { EmptyState } from '@/components/ui/empty-state';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatCount, progressPercent } from '@/lib/audits/format';
import { useAudits } from '@/lib/audits/hooks';
import type { AuditDto } from '@/lib/audits/schema';
import { phaseLabel } from '@/lib/runs/phases';
import { RelativeTime } from './relative-time';
import { StatusBadge } from './status-badge';

function StatusCell({ audit }: { audit: AuditDto }) {
  const isRunning = audit.status === 'running';
  // A queued audit's phase is only interesting when it says more than "waiting" (e.g. a retry).
  const showPhase = isRunning || (audit.status === 'queued' && !['starting', 'queued'].includes(audit.phase));
  return (
    <div className="status-cell">
      <StatusBadge status={audit.status} />
      {showPhase ? (
        <span className="status-cell__phase">
          {phaseLabel(audit.phase)}
          {isRunning && audit.progress.total > 0
            ? ` · ${formatCount(audit.progress.done)} / ${formatCount(audit.progress.total)}`
            : ''}
        </span>
      ) : null}
      {isRunning ? (
        <ProgressBar
          value={progressPercent(audit.progress)}
          label={`Progress of ${audit.name}`}
          size="small"
        />
      ) : null}
    </div>
  );
}

function AuditRow({ audit }: { audit: AuditDto }) {
  const hasCrawl = audit.crawl.source !== null;
  return (
    <tr>
      <td className="table__name">
        <Link href={`/audits/${audit.id}`}>{audit.name}</Link>
      </td>
      <td>
        <StatusCell audit={audit} />
      </td>
      <td className="num">{formatCount(audit.sitemap.entries)}</td>
      <td className="num">{formatCount(audit.sitemap.uniqueUrls)}</td>
      <td className="num">{hasCrawl ? formatCount(audit.crawl.rows) : <span className="muted">—</span>}</td>
      <td className="num muted">
        <RelativeTime iso={audit.createdAt} />
      </td>
    </tr>
  );
}

function LoadingRows() {
  return (
    <tbody aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <tr key={row}>
          {[0, 1, 2, 3, 4, 5].map((cell) => (
            <td key={cell}>
              <div className="skeleton" />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

export function AuditList() {
  const audits = useAudits();
  const canCreate = useCan('reviewer');
  const items = audits.data?.pages.flatMap((page) => page.items) ?? [];

  if (audits.isSuccess && items.length === 0) {
    return (
      <div className="card">
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
          An audit reads your XML sitemaps (and optionally a crawl export) so you can see what is listed, what
          was crawled and where they disagree.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="stack">
      {audits.isError && !audits.data ? (
        <Alert title="Could not load audits">{audits.error.message}</Alert>
      ) : null}
      <div className="card table-wrap">
        <table className="table" aria-busy={audits.isPending}>
          <caption className="visually-hidden">Audits, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Entries
              </th>
              <th scope="col" className="num">
                Unique URLs
              </th>
              <th scope="col" className="num">
                Crawl rows
              </th>
              <th scope="col" className="num">
                Created
              </th>
            </tr>
          </thead>
          {audits.isPending ? (
            <LoadingRows />
          ) : (
            <tbody>
              {items.map((audit) => (
                <AuditRow key={audit.id} audit={audit} />
              ))}
            </tbody>
          )}
        </table>
        {items.length > 0 ? (
          <div className="table__foot">
            <span>
              Showing {formatCount(items.length)} audit{items.length === 1 ? '' : 's'}
            </span>
            {audits.hasNextPage ? (
              <button
                type="button"
                className="button button--small"
                onClick={() => void audits.fetchNextPage()}
                disabled={audits.isFetchingNextPage}
              >
                {audits.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      {audits.isFetchNextPageError ? (
        <Alert title="Could not load more audits">{audits.error?.message}</Alert>
      ) : null}
    </div>
  );
}
