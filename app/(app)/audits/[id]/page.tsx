'use client';
// One audit: live status while it ingests, then its counts, issues, crawl report and sitemap tree.
import { use } from 'react';
import { AuditView } from './_components/audit-view';

export default function AuditPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = use(params);
  return <AuditView id={id} />;
}
