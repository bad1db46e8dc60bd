// Home: the list of audits.
import Link from 'next/link';
import { Suspense } from 'react';
import { requirePageActor } from '@/lib/auth/page';
import { allows } from '@/lib/auth/roles';
import { AuditList } from './audits/_components/audit-list';

export default async function HomePage() {
  const actor = await requirePageActor('viewer', '/');
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>Audits</h1>
          <p className="muted">
            Each audit reads a set of sitemaps and a crawl (an export, or one it makes itself) and compares
            them.
          </p>
        </div>
        {allows(actor.role, 'reviewer') ? (
          <Link href="/audits/new" className="button button--primary">
            New audit
          </Link>
        ) : null}
      </div>
      {/* The list reads its filters from the URL (useSearchParams). */}
      <Suspense fallback={null}>
        <AuditList />
      </Suspense>
    </>
  );
}
