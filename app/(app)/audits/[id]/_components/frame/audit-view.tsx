'use client';
// The audit page body: a summary (header, live progress, totals, issues, findings summary), then the
// sections as tabs (audit-sections.tsx): Review, Spot-checks, Search Console, Sitemap files, Hygiene, Crawl
// import and Sharing, each present once it applies. The first data comes with the page (audit-seed.ts).
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Suspense, useEffect } from 'react';
import { useCan } from '@/app/session-context';
import { isSignalWarning } from '@/components/findings/warning-words';
import { Alert } from '@/components/ui/alert';
import { EmptyState } from '@/components/ui/empty-state';
import { useAudit, useCancelAudit, useDeleteAudit, useSitemapFiles } from '@/lib/audits/hooks';
import { isActiveStatus } from '@/lib/audits/labels';
import { prominentWarningsOf } from '@/lib/audits/schema';
import { isNotFound } from '@/lib/client/api';
import { isSanityWarning, sanityWarningTitle } from '@/lib/findings/format';
import type { FindingsOverview } from '@/lib/findings/schema';
import { CrawlReport } from '../crawl/crawl-report';
import { SitemapTree } from '../files/sitemap-tree';
import { HygieneSection } from '../hygiene/hygiene-section';
import { useReviewView } from '../review/use-finding-view';
import { GscSection } from '../search-console/gsc-section';
import { SharePanel } from '../sharing/share-panel';
import { SpotChecksPanel } from '../spot-checks/spot-checks-panel';
import { AuditCounts } from '../summary/audit-counts';
import { IssueLists } from '../summary/issue-lists';
import { AuditHeader } from './audit-header';
import { type AuditSection, AuditSections } from './audit-sections';
import { type AuditPageSeed, useAuditSeed } from './audit-seed';
import { FindingsSummaryArea, ReviewArea } from './findings-area';
import { ProgressPanel } from './progress-panel';

/** The file tree, where choosing a file filters the review to the URLs it declares (and so shows the
 * Review tab: a review URL carries no tab). */
function ReviewedSitemapTree({ auditId, findings }: { auditId: string; findings: FindingsOverview }) {
  const files = useSitemapFiles(auditId);
  const [view, , filterReview] = useReviewView(findings);
  return (
    <SitemapTree
      files={files}
      selectedFileId={view.file}
      onSelectFile={(file) => filterReview({ file: view.file === file ? undefined : file })}
    />
  );
}

/** The tree alone, before the audit is reconciled (nothing to filter yet). */
function PlainSitemapTree({ auditId }: { auditId: string }) {
  return <SitemapTree files={useSitemapFiles(auditId)} />;
}

export function AuditView({ id, seed }: { id: string; seed?: AuditPageSeed }) {
  useAuditSeed(id, seed);
  const router = useRouter();
  const canShare = useCan('reviewer');
  const audit = useAudit(id);
  const deleteAudit = useDeleteAudit();
  const cancelAudit = useCancelAudit(id);
  const name = audit.data?.name;

  useEffect(() => {
    document.title = name ? `${name} · Sitemap Audit` : 'Audit · Sitemap Audit';
  }, [name]);

  if (deleteAudit.isSuccess) {
    return <p className="muted">Audit deleted. Returning to the list…</p>;
  }
  if (audit.isError && isNotFound(audit.error)) {
    return (
      <div className="card">
        <EmptyState
          title="Audit not found"
          action={
            <Link href="/" className="button button--primary">
              Back to audits
            </Link>
          }
        >
          There is no audit at this address. It may have been deleted, or the link may be incomplete.
        </EmptyState>
      </div>
    );
  }
  if (audit.isError && !audit.data) {
    return <Alert title="Could not load this audit">{audit.error.message}</Alert>;
  }
  if (!audit.data) {
    return (
      <div className="stack" aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading audit…
        </span>
        <div className="skeleton" style={{ width: '40%', height: '2rem' }} />
        <div className="skeleton" style={{ height: '5rem' }} />
        <div className="skeleton" style={{ height: '12rem' }} />
      </div>
    );
  }

  const data = audit.data;
  const findings = data.findings;
  // A warning that questions the whole result (the crawl does not match the sitemap) heads the page; other
  // sanity warnings lead the findings summary and signals filter its review; the general list keeps the rest.
  const prominent = data.warnings.filter((w) => prominentWarningsOf([w]).length > 0);
  const sanityWarnings = findings
    ? data.warnings.filter((w) => isSanityWarning(w) && !prominent.includes(w))
    : [];
  const signalWarnings = findings ? data.warnings.filter(isSignalWarning) : [];
  const otherIssues = findings
    ? { ...data, warnings: data.warnings.filter((w) => !isSanityWarning(w) && !isSignalWarning(w)) }
    : data;
  const hasRows = findings ? findings.prune.total + findings.held.total + findings.add.total > 0 : false;
  // Its sitemaps were read (the ingest finished with entries): what needs only them applies, crawl or not,
  // and stays while a crawl added later is read.
  const sitemapsRead = Boolean(findings) || (data.timings.ingest !== undefined && data.sitemap.entries > 0);
  const searchConsole: AuditSection = {
    id: 'search-console',
    label: 'Search Console',
    render: () => <GscSection auditId={id} isReconciled={Boolean(findings)} />,
  };
  // One entry per tab, in order; a section that does not apply yet is left out. Without findings the file
  // tree leads (the first thing to look at), Search Console after the files' hygiene.
  const sections = (
    [
      findings && {
        id: 'review',
        label: 'Review',
        render: () => (
          <ReviewArea
            auditId={id}
            findings={findings}
            hasNoOverlap={data.warnings.some((w) => w.code === 'no_overlap')}
            hasInlinks={data.crawl.crawler !== null || Object.hasOwn(data.crawl.mappedColumns, 'inlinks')}
          />
        ),
      },
      hasRows && { id: 'spot-checks', label: 'Spot-checks', render: () => <SpotChecksPanel auditId={id} /> },
      findings && searchConsole,
      {
        id: 'files',
        label: 'Sitemap files',
        render: () =>
          findings ? (
            <ReviewedSitemapTree auditId={id} findings={findings} />
          ) : (
            <PlainSitemapTree auditId={id} />
          ),
      },
      // Every audit whose sitemaps were read is graded: one whose reconciliation failed or was cancelled too.
      (sitemapsRead ||
        data.status === 'succeeded' ||
        data.status === 'partial' ||
        (!isActiveStatus(data.status) && data.timings.ingest !== undefined)) && {
        id: 'hygiene',
        label: 'Hygiene',
        render: () => <HygieneSection auditId={id} hasFindings={Boolean(findings)} />,
      },
      !findings && sitemapsRead && searchConsole,
      // A crawl this product made is no import: the tab says what it holds.
      {
        id: 'crawl',
        label: data.crawl.crawler ? 'Crawl' : 'Crawl import',
        render: () => <CrawlReport audit={data} />,
      },
      findings && canShare && { id: 'sharing', label: 'Sharing', render: () => <SharePanel auditId={id} /> },
    ] as (AuditSection | false | null)[]
  ).filter((section): section is AuditSection => Boolean(section));
  return (
    <div className="stack">
      <AuditHeader
        audit={data}
        isCancelling={cancelAudit.isPending}
        onCancel={() => cancelAudit.mutate()}
        isDeleting={deleteAudit.isPending}
        onDelete={() => deleteAudit.mutate(id, { onSuccess: () => router.replace('/') })}
      />
      {cancelAudit.isError ? (
        <Alert title="The audit could not be cancelled">{cancelAudit.error.message}</Alert>
      ) : null}
      {deleteAudit.isError ? (
        <Alert title="The audit could not be deleted">{deleteAudit.error.message}</Alert>
      ) : null}
      {audit.isError ? (
        <Alert tone="warning" title="Live updates paused">
          {audit.error.message}
        </Alert>
      ) : null}
      {isActiveStatus(data.status) ? <ProgressPanel audit={data} /> : null}
      {prominent.map((warning) => (
        <div key={warning.code} data-testid="prominent-warning" data-code={warning.code}>
          <Alert title={sanityWarningTitle(warning.code)}>{warning.message}</Alert>
        </div>
      ))}
      <AuditCounts audit={data} />
      <IssueLists audit={otherIssues} />
      {findings ? (
        <Suspense fallback={null}>
          <FindingsSummaryArea
            auditId={id}
            findings={findings}
            warnings={sanityWarnings}
            signalWarnings={signalWarnings}
          />
        </Suspense>
      ) : null}
      <Suspense fallback={null}>
        <AuditSections sections={sections} />
      </Suspense>
    </div>
  );
}
