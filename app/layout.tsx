// Root layout: the document shell only. The app's pages add the header and session in app/(app)/layout.tsx;
// sign-in, setup and shared reports have their own.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

// Every page is rendered per request: its scripts carry that request's CSP nonce (proxy.ts).
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Sitemap Audit', template: '%s · Sitemap Audit' },
  description: 'Reconcile XML sitemaps against crawl exports.',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
