// One audit: live status while it ingests, then its counts, issues, findings and sections. The server
// reads the first screen's data while it renders (page-data.ts), so the summary comes with the HTML.
import { requirePageActor } from '@/lib/auth/page';
import { AuditView } from './_components/frame/audit-view';
import { loadAuditPage } from './page-data';

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  // The layout checks the session too, but renders beside the page: no data is read before it is known.
  await requirePageActor();
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (typeof value === 'string') search.set(name, value);
  return <AuditView id={id} seed={await loadAuditPage(id, search)} />;
}
