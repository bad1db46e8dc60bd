'use client';
// The audit page's "Search Console" section: what Google says about the audit's URLs, from the
// exports a team imports and from URL Inspection runs. Each part of the issue adds its component here.
import { GscCrossReference } from './gsc-cross-reference';
import { GscGaps } from './gsc-gaps';
import { GscImports } from './gsc-imports';
import { GscInspections } from './gsc-inspections';

export function GscSection({ auditId, isReconciled }: { auditId: string; isReconciled: boolean }) {
  return (
    <section
      className="card card__body stack gsc-section"
      aria-labelledby="gsc-section-heading"
      data-testid="gsc-section"
      data-audit-id={auditId}
    >
      <div>
        <h2 id="gsc-section-heading">Search Console</h2>
        <p className="muted small">
          Import the page-indexing, Sitemaps and Performance exports Search Console downloads (CSV files or
          the zip as it comes) to see, per sitemap file, how many declared URLs Google indexed and why the
          rest are not.
        </p>
      </div>
      <GscImports auditId={auditId} />
      <GscGaps auditId={auditId} />
      {/* Google's reasons against the review's rows: an audit without a crawl has none yet. */}
      {isReconciled ? (
        <GscCrossReference auditId={auditId} />
      ) : (
        <p className="muted small" data-testid="gsc-xref-unreconciled">
          Once a crawl export is added (Crawl import tab), Google's reasons are set beside the review's prune,
          hold and add lists here.
        </p>
      )}
      <GscInspections auditId={auditId} />
    </section>
  );
}
