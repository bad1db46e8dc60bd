import type { Metadata } from 'next';
import Link from 'next/link';
import styles from '../auth.module.css';

export const metadata: Metadata = { title: 'Not allowed' };

export default function ForbiddenPage() {
  return (
    <>
      <h1 className={styles.title}>Not allowed</h1>
      <p>Your role does not include this page. Ask an admin if you need it.</p>
      <Link href="/">Back to the audits</Link>
    </>
  );
}
