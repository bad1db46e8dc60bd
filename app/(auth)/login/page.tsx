import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { countUsers } from '@/lib/auth/data';
import { pageActor } from '@/lib/auth/page';
import { LoginForm } from '../credentials-form';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await pageActor()) redirect('/');
  if ((await countUsers()) === 0) redirect('/setup');
  const { next } = await searchParams;
  return (
    <>
      <h1 className="auth-card__title">Sign in</h1>
      <LoginForm next={next ?? '/'} />
      <p className="field__hint">Forgot your password? An admin can set a new one.</p>
    </>
  );
}
