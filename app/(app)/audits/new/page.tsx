// New audit: sitemap sources, an optional crawl export and options.
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
            Point us at your sitemaps and, if you have one, a crawl export. We read everything in the
            background; you can watch it on the audit page.
          </p>
        </div>
      </div>
      <NewAuditForm />
    </>
  );
}
