// What a share link shows once it no longer opens a report (HTTP 404, from the page's notFound()): in the
// report's own look, with the product's name and what to do next. Unknown, revoked and expired links are
// told apart nowhere (lib/report/shared.ts), so the page names all three.
import type { Metadata } from 'next';
import { Brand } from '@/app/brand';

export const metadata: Metadata = {
  title: 'Report link not valid',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

export default function ReportLinkNotFound() {
  return (
    <main id="main" className="report-gone" data-testid="report-gone">
      <Brand className="report-gone__brand" />
      <section className="card report-gone__card" aria-labelledby="report-gone-heading">
        <div className="card__body stack">
          <p className="muted small report-kicker">Sitemap audit report</p>
          <h1 id="report-gone-heading">This report link does not work</h1>
          <p>
            The link was revoked, has expired or was mistyped: it opens no report. Shared links are read-only
            copies that the person who shared them can revoke or let expire.
          </p>
          <p>Ask the person who sent it for a new link.</p>
        </div>
      </section>
    </main>
  );
}
