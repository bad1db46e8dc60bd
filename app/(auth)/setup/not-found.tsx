// /setup once the first account exists: the page is gone (404), and says where to go instead.
import Link from 'next/link';

export default function SetupDone() {
  return (
    <>
      <h1 className="auth-card__title">Already set up</h1>
      <p>
        Sitemap Audit has its first account, so setup is closed. Sign in with your account; an admin adds new
        people under <strong>Users</strong>.
      </p>
      <Link href="/login">Sign in</Link>
    </>
  );
}
