// The diff between two audits of a site (`?from=<auditId>&to=<auditId>`): counts per type, the rows of one.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { requirePageActor } from '@/lib/auth/page';
import { DiffView } from './_components/diff-view';

export const metadata: Metadata = { title: 'Compare runs' };

export default async function SiteDiffPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageActor();
  // The view reads from, to and type from the URL (useSearchParams).
  return (
    <Suspense fallback={null}>
      <DiffView siteId={id} />
    </Suspense>
  );
}
