// The product mark and name, shared by the app header, the sign-in pages and the report's 404.
import Link from 'next/link';
import styles from './brand.module.css';

export function BrandMark() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className={styles.mark}>
      <rect x="1" y="1" width="18" height="18" rx="4" fill="currentColor" />
      <path d="M5 7h10M5 10h7M5 13h9" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** The mark and the name: a link when given `href` (the app's header), else a line of text. */
export function Brand({ href, className }: { href?: string; className?: string }) {
  const classes = className ? `${styles.brand} ${className}` : styles.brand;
  const content = (
    <>
      <BrandMark />
      Sitemap Audit
    </>
  );
  return href ? (
    <Link href={href} className={classes}>
      {content}
    </Link>
  ) : (
    <p className={classes}>{content}</p>
  );
}
