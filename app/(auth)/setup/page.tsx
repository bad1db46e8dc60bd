import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { countUsers } from '@/lib/auth/data';
import { SetupForm } from '../credentials-form';

export const metadata: Metadata = { title: 'Set up' };
export const dynamic = 'force-dynamic';

/** One-time: creates the first admin. Gone (404) once any user exists, with a pointer to sign in
 * (not-found.tsx). */
export default async function SetupPage() {
  if ((await countUsers()) > 0) notFound();
  return (
    <>
      <h1 className="auth-card__title">Set up Sitemap Audit</h1>
      <p>Create the first account. It is an admin: it can add the rest of the team afterwards.</p>
      <SetupForm />
    </>
  );
}
