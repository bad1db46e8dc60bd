'use client';
// The site page body: the header (with Run again), then the sections as tabs: Overview (trends and runs),
// Changes (the change feed), Schedules, and for admins Webhooks and Settings.
import Link from 'next/link';
import { Suspense, useEffect } from 'react';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { EmptyState } from '@/components/ui/empty-state';
import { isNotFound } from '@/lib/client/api';
import { useSite } from '@/lib/sites/hooks';
import { ChangeFeed } from '../changes/change-feed';
import { SiteRuns } from '../overview/site-runs';
import { SiteTrends } from '../overview/site-trends';
import { SiteSchedules } from '../schedules/site-schedules';
import { SiteSettings } from '../settings/site-settings';
import { SiteWebhooks } from '../webhooks/site-webhooks';
import { SiteHeader } from './site-header';
import { type SiteSection, SiteTabs } from './site-tabs';

export function SiteView({ id }: { id: string }) {
  const site = useSite(id);
  const isAdmin = useCan('admin');
  const name = site.data?.name;
  useEffect(() => {
    document.title = name ? `${name} · Sitemap Audit` : 'Site · Sitemap Audit';
  }, [name]);

  if (site.isError && isNotFound(site.error)) {
    return (
      <div className="card">
        <EmptyState
          title="Site not found"
          action={
            <Link href="/sites" className="button button--primary">
              Back to sites
            </Link>
          }
        >
          There is no site at this address. The link may be incomplete.
        </EmptyState>
      </div>
    );
  }
  if (site.isError && !site.data) return <Alert title="Could not load this site">{site.error.message}</Alert>;
  if (!site.data) {
    return (
      <div className="stack" aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading site…
        </span>
        <div className="skeleton" style={{ width: '40%', height: '2rem' }} />
        <div className="skeleton" style={{ height: '12rem' }} />
      </div>
    );
  }
  const data = site.data;
  const sections: SiteSection[] = [
    {
      id: 'overview',
      label: 'Overview',
      render: () => (
        <>
          <SiteTrends runs={data.runs} />
          <SiteRuns site={data} />
        </>
      ),
    },
    { id: 'changes', label: 'Changes', render: () => <ChangeFeed site={data} /> },
    { id: 'schedules', label: 'Schedules', render: () => <SiteSchedules site={data} /> },
    ...(isAdmin
      ? [
          { id: 'webhooks', label: 'Webhooks', render: () => <SiteWebhooks siteId={data.id} /> },
          { id: 'settings', label: 'Settings', render: () => <SiteSettings site={data} /> },
        ]
      : []),
  ];
  return (
    <div className="stack">
      <SiteHeader site={data} />
      {site.isError ? (
        <Alert tone="warning" title="Live updates paused">
          {site.error.message}
        </Alert>
      ) : null}
      {/* The tabs read `?tab=` (useSearchParams). */}
      <Suspense fallback={null}>
        <SiteTabs sections={sections} />
      </Suspense>
    </div>
  );
}
