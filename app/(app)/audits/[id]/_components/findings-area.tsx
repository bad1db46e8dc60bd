'use client';
// Reconciliation results on the audit page: the summary, then the review of the list named in the URL
// (the first list with rows when the URL names none).
import type { AuditIssue } from '@/lib/audits/schema';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';
import { FindingsSection } from './findings-section';
import { FindingsSummary } from './findings-summary';
import { useReviewView } from './use-finding-view';

export function FindingsArea({
  auditId,
  findings,
  warnings,
  signalWarnings,
  hasNoOverlap,
  hasInlinks,
}: {
  auditId: string;
  findings: FindingsOverview;
  /** Warnings that question the reconciliation itself. */
  warnings: readonly AuditIssue[];
  /** Warnings about signals (multi_file, canonical_chain, ...): each can filter the review. */
  signalWarnings: readonly AuditIssue[];
  hasNoOverlap: boolean;
  /** The crawl export had an inlinks column. */
  hasInlinks: boolean;
}) {
  const [view, setView, filterReview] = useReviewView(findings);
  const openList = (list: FindingList, reason?: string) => {
    setView({ list, reason, sort: 'id' });
    document.getElementById('findings')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <>
      <FindingsSummary
        auditId={auditId}
        findings={findings}
        warnings={warnings}
        signalWarnings={signalWarnings}
        activeSignal={view.signal}
        onOpenList={openList}
        onFilter={filterReview}
      />
      <FindingsSection
        auditId={auditId}
        findings={findings}
        view={view}
        setView={setView}
        hasNoOverlap={hasNoOverlap}
        hasInlinks={hasInlinks}
      />
    </>
  );
}
