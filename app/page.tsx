// Home: the list of audits.
import Link from 'next/link';
import { AuditList } from './audits/_components/audit-list';

export default function HomePage() {
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>Audits</h1>
          <p className="muted">Each audit reads a set of sitemaps and a crawl export and compares them.</p>
        </div>
        <Link href="/audits/new" className="button button--primary">
          New audit
        </Link>
      </div>
      <AuditList />
    </>
  );
}
