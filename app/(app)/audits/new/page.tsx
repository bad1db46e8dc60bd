// New audit: sitemap sources, a crawl (none, an export or the site crawled) and options.
import type { Metadata } from 'next';
import { requirePageActor } from '@/lib/auth/page';
import { NewAuditForm } from './_components/new-audit-form';

export const metadata: Metadata = { title: 'New audit' };

export default async function NewAuditPage() {
  await requirePageActor('reviewer', '/audits/new');
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>New audit</h1>
          <p className="muted">
            Point us at your sitemaps, then give a crawl export or let us crawl the site. We read everything
            in the background; you can watch it on the audit page.
          </p>
        </div>
      </div>
      <NewAuditForm />
    </>
  );
}
