// Root layout: the document shell, a slim header with navigation and the page container.
import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: { default: 'Sitemap Audit', template: '%s · Sitemap Audit' },
  description: 'Reconcile XML sitemaps against crawl exports.',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="container site-header__inner">
            <Link href="/" className="brand">
              <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className="brand__mark">
                <rect x="1" y="1" width="18" height="18" rx="4" fill="currentColor" />
                <path d="M5 7h10M5 10h7M5 13h9" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
              </svg>
              Sitemap Audit
            </Link>
            <nav aria-label="Main" className="site-nav">
              <Link href="/">Audits</Link>
              <Link href="/audits/new" className="button button--primary button--small">
                New audit
              </Link>
            </nav>
          </div>
        </header>
        <main id="main" className="container main">
          <Providers>{children}</Providers>
        </main>
      </body>
    </html>
  );
}
