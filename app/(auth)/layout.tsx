// Sign-in, first-run setup and "not allowed": a centred card, no navigation. The forms post through
// TanStack Query hooks, hence the providers.
import type { ReactNode } from 'react';
import { Brand } from '../brand';
import { Providers } from '../providers';
import styles from './auth.module.css';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className={styles.page}>
      <div className={`card ${styles.card}`}>
        <Brand className={styles.brand} />
        <Providers>{children}</Providers>
      </div>
    </main>
  );
}
