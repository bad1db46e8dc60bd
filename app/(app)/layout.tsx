// The app's pages: signed in only (server-side check on every render), with the header and navigation.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { requirePageActor } from '@/lib/auth/page';
import { allows } from '@/lib/auth/roles';
import { Brand } from '../brand';
import { Providers } from '../providers';
import { SessionProvider } from '../session-context';
import shell from './app-shell.module.css';
import { SiteNav } from './site-nav';
import { SkipLinks } from './skip-links';
import { UserMenu } from './user-menu';

export const dynamic = 'force-dynamic';

export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await requirePageActor();
  const user = { name: actor.name, email: actor.email, role: actor.role };
  // The providers wrap the header too: the user menu signs out through a query hook.
  return (
    <Providers>
      <SkipLinks />
      <header className={shell.header}>
        <div className={`container ${shell.inner}`}>
          <Brand href="/" />
          <SiteNav>
            <Link href="/">Audits</Link>
            <Link href="/sites">Sites</Link>
            {allows(actor.role, 'admin') && <Link href="/users">Users</Link>}
            <Link href="/account">Account</Link>
            {allows(actor.role, 'reviewer') && (
              <Link href="/audits/new" className="button button--primary button--small">
                New audit
              </Link>
            )}
            <UserMenu user={user} />
          </SiteNav>
        </div>
      </header>
      <main id="main" className="container main">
        <SessionProvider user={user}>{children}</SessionProvider>
      </main>
    </Providers>
  );
}
