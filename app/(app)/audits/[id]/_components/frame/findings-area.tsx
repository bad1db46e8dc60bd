'use client';
// Reconciliation results on the audit page: the summary (at the top of the page), and the review of the
// list named in the URL (the Review tab; the first list with rows when the URL names none). Both read the
// view from the URL, so a summary link switches the review's list and brings the Review tab up.
import type { AuditIssue } from '@/lib/audits/schema';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';
import { FindingsSection } from '../review/findings-section';
import { revealReview, useReviewView } from '../review/use-finding-view';
import { FindingsSummary } from '../summary/findings-summary';

export function FindingsSummaryArea({
  auditId,
  findings,
  warnings,
  signalWarnings,
}: {
  auditId: string;
  findings: FindingsOverview;
  /** Warnings that question the reconciliation itself. */
  warnings: readonly AuditIssue[];
  /** Warnings about signals (multi_file, canonical_chain, ...): each can filter the review. */
  signalWarnings: readonly AuditIssue[];
}) {
  const [view, setView, filterReview] = useReviewView(findings);
  const openList = (list: FindingList, reason?: string) => {
    setView({ list, reason, sort: 'id' });
    revealReview();
  };
  return (
    <FindingsSummary
      auditId={auditId}
      findings={findings}
      warnings={warnings}
      signalWarnings={signalWarnings}
      activeSignal={view.signal}
      onOpenList={openList}
      onFilter={filterReview}
    />
  );
}

export function ReviewArea({
  auditId,
  findings,
  hasNoOverlap,
  hasInlinks,
}: {
  auditId: string;
  findings: FindingsOverview;
  hasNoOverlap: boolean;
  /** The crawl export had an inlinks column. */
  hasInlinks: boolean;
}) {
  const [view, setView] = useReviewView(findings);
  return (
    <FindingsSection
      auditId={auditId}
      findings={findings}
      view={view}
      setView={setView}
      hasNoOverlap={hasNoOverlap}
      hasInlinks={hasInlinks}
    />
  );
}
