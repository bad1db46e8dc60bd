// Sign-in, first-run setup and "not allowed": a centred card, no navigation.
import type { ReactNode } from 'react';
import { BrandMark } from '../brand';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <div className="auth-card card">
        <p className="brand auth-card__brand">
          <BrandMark />
          Sitemap Audit
        </p>
        {children}
      </div>
    </main>
  );
}
