// Sites: every host audited here, with its runs, latest run, active run and schedules.
import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { requirePageActor } from '@/lib/auth/page';
import { allows } from '@/lib/auth/roles';
import { SiteList } from './_components/site-list';

export const metadata: Metadata = { title: 'Sites' };

export default async function SitesPage() {
  const actor = await requirePageActor('viewer', '/sites');
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>Sites</h1>
          <p className="muted">
            A site is a host: its audits are its runs, compared run after run to show what changed.
          </p>
        </div>
        {allows(actor.role, 'reviewer') ? (
          <Link href="/audits/new" className="button button--primary">
            New audit
          </Link>
        ) : null}
      </div>
      {/* The list reads its search from the URL (useSearchParams). */}
      <Suspense fallback={null}>
        <SiteList />
      </Suspense>
    </>
  );
}
