'use client';
// The site page's header: name and host, how many runs, the run going now (linked), the approval rule for
// unreached rows when it is on, and Run again for reviewers and admins.
import Link from 'next/link';
import { useCan } from '@/app/session-context';
import { formatCount } from '@/lib/core/format';
import type { SiteDetailDto } from '@/lib/sites/schema';
import { StatusBadge } from '../../../../audits/_components/status-badge';
import { RunAgain } from './run-again';
import styles from './site-header.module.css';

export function SiteHeader({ site }: { site: SiteDetailDto }) {
  const canRun = useCan('reviewer');
  return (
    <div className="page-header">
      <div className="page-header__title">
        <p className="small">
          <Link href="/sites">← All sites</Link>
        </p>
        <h1 data-testid="site-name">{site.name}</h1>
        <div className="page-header__meta">
          {site.name !== site.host ? <span data-testid="site-host">{site.host}</span> : null}
          <span data-testid="site-run-count">
            {formatCount(site.runCount)} run{site.runCount === 1 ? '' : 's'}
          </span>
          {site.activeRun ? (
            <span className={styles.active} data-testid="site-active-run">
              <StatusBadge status={site.activeRun.status} />
              <Link href={`/audits/${site.activeRun.id}`}>
                {site.activeRun.status === 'queued' ? 'Run queued' : 'Run in progress'}
              </Link>
            </span>
          ) : null}
          {site.settings.requireConfirmedUnreached ? (
            <span>Unreached rows need two crawls before approval</span>
          ) : null}
        </div>
      </div>
      {canRun && site.latestRun ? (
        <div className="page-header__actions">
          <RunAgain site={site} />
        </div>
      ) : null}
    </div>
  );
}
