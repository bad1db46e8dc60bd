'use client';
// Reconciliation results on the audit page: the summary, then the review of the list named in the URL.
import type { AuditIssue } from '@/lib/audits/schema';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';
import { FindingsSection } from './findings-section';
import { FindingsSummary } from './findings-summary';
import { useFindingView } from './use-finding-view';

export function FindingsArea({
  auditId,
  findings,
  warnings,
}: {
  auditId: string;
  findings: FindingsOverview;
  warnings: readonly AuditIssue[];
}) {
  const [view, setView] = useFindingView();
  const openList = (list: FindingList, reason?: string) => {
    setView({ list, reason, sort: 'id' });
    document.getElementById('findings')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <>
      <FindingsSummary auditId={auditId} findings={findings} warnings={warnings} onOpenList={openList} />
      <FindingsSection auditId={auditId} findings={findings} view={view} setView={setView} />
    </>
  );
}
