import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { countUsers } from '@/lib/auth/data';
import { safeNextPath } from '@/lib/auth/next-path';
import { pageActor } from '@/lib/auth/page';
import styles from '../auth.module.css';
import { LoginForm } from '../credentials-form';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

/** `?next=` is where to go after signing in: only a path of this site (lib/auth/next-path.ts), else `/`.
 * `?setup=done` is where /setup sends people once the first account exists: a note says so. */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; setup?: string | string[] }>;
}) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  if (await pageActor()) redirect(next);
  if ((await countUsers()) === 0) redirect('/setup');
  return (
    <>
      <h1 className={styles.title}>Sign in</h1>
      {params.setup === 'done' ? (
        <p className={styles.note} role="status" data-testid="setup-done">
          Sitemap Audit is already set up. Sign in with your account; an admin adds new people under Users.
        </p>
      ) : null}
      <LoginForm next={next} />
      <p className="field__hint">Forgot your password? An admin can set a new one.</p>
    </>
  );
}
