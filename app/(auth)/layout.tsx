// Sign-in, first-run setup and "not allowed": a centred card, no navigation. The forms post through
// TanStack Query hooks, hence the providers.
import type { ReactNode } from 'react';
import { BrandMark } from '../brand';
import { Providers } from '../providers';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card card">
        <p className="brand auth-card__brand">
          <BrandMark />
          Sitemap Audit
        </p>
        <Providers>{children}</Providers>
      </div>
    </main>
  );
}
