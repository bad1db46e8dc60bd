import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { countUsers } from '@/lib/auth/data';
import styles from '../auth.module.css';
import { SetupForm } from '../credentials-form';

export const metadata: Metadata = { title: 'Set up' };
export const dynamic = 'force-dynamic';

/** One-time: creates the first admin. Once any user exists it sends people to sign in, where a short
 * note says setup is closed (login/page.tsx, `?setup=done`). */
export default async function SetupPage() {
  if ((await countUsers()) > 0) redirect('/login?setup=done');
  return (
    <>
      <h1 className={styles.title}>Set up Sitemap Audit</h1>
      <p>Create the first account. It is an admin: it can add the rest of the team afterwards.</p>
      <SetupForm />
    </>
  );
}
