// A centred message for "nothing here yet" and "not found" states, with an optional call to action.
import type { ReactNode } from 'react';
import styles from './empty-state.module.css';

export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <svg className={styles.icon} aria-hidden="true" width="48" height="48" viewBox="0 0 48 48" fill="none">
        <rect x="8" y="6" width="32" height="36" rx="4" stroke="currentColor" strokeWidth="2.5" />
        <path d="M15 16h18M15 23h12M15 30h15" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}
