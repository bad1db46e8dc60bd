// /r/<token>: the read-only report of the one audit a share link opens. A server component: the list tabs,
// reason filters, search and pager change the search params (client-side navigation that keeps the scroll
// position); there is no client fetching and nothing to change.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { Badge } from '@/components/ui/badge';
import { statusLabel, statusTone } from '@/lib/audits/labels';
import { utcDateTime } from '@/lib/report/format';
import { PDF_ROWS_PER_REASON } from '@/lib/report/pdf-data';
import { loadReportPage, openShare, REPORT_GSC_ROWS } from '@/lib/report/shared';
import { ReportFindings } from './_components/report-findings';
import { ReportGscSection } from './_components/report-gsc';
import { ReportSpotCheckSection } from './_components/report-spot-check';
import { ReportSummary } from './_components/report-summary';

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// One token lookup per request, shared by the metadata and the page.
const open = cache(openShare);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const share = await open((await params).token);
  return {
    title: share ? `${share.audit.name}: audit report` : 'Audit report',
    robots: { index: false, follow: false },
    referrer: 'no-referrer',
  };
}

export default async function SharedReportPage({ params, searchParams }: Props) {
  const { token } = await params;
  const share = await open(token);
  if (!share) notFound();
  const data = await loadReportPage(share, await searchParams);
  const { audit } = data;

  return (
    <article className="report-page stack" data-testid="shared-report">
      <header className="page-header report-header">
        <div className="page-header__title">
          <p className="muted small report-kicker">Sitemap audit report · read-only</p>
          <h1 data-testid="report-audit-name">{audit.name}</h1>
          <div className="page-header__meta">
            <Badge tone={statusTone(audit.status)}>{statusLabel(audit.status)}</Badge>
            <span>Created {utcDateTime(audit.createdAt)}</span>
            <span>
              {audit.findings ? `Reconciled ${utcDateTime(audit.findings.reconciledAt)}` : 'Not reconciled'}
            </span>
          </div>
        </div>
        <div className="report-actions">
          <a
            className="button button--primary"
            href={`/r/${encodeURIComponent(token)}/report.pdf`}
            download
            data-testid="report-pdf-link"
          >
            Download PDF
          </a>
          <span className="muted small">
            Summary, charts and the top {PDF_ROWS_PER_REASON} rows of each reason
          </span>
        </div>
      </header>
      <ReportSummary audit={audit} perList={data.perList} perFile={data.perFile} />
      {audit.findings ? <ReportSpotCheckSection run={data.spotCheck} items={data.spotItems} /> : null}
      <ReportGscSection gsc={data.gsc} rows={REPORT_GSC_ROWS} />
      {audit.findings && data.page ? (
        <ReportFindings
          base={`/r/${encodeURIComponent(token)}`}
          findings={audit.findings}
          view={data.view}
          page={data.page}
          nextHref={data.nextHref}
          verdicts={data.spotCheck ? data.verdicts : null}
        />
      ) : (
        <section className="card">
          <div className="card__body">
            <p className="muted">This audit has no findings: it has not been reconciled.</p>
          </div>
        </section>
      )}
    </article>
  );
}
