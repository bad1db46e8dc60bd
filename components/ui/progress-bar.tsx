// A progress bar; without a value it shows an indeterminate animation.
import styles from './progress-bar.module.css';

export function ProgressBar({
  value,
  label,
  size = 'normal',
  tone = 'running',
}: {
  /** 0..100, or null for indeterminate. */
  value: number | null;
  label: string;
  size?: 'normal' | 'small';
  /** `success` for a share of work done (the reviewed share), not work going on. */
  tone?: 'running' | 'success';
}) {
  const indeterminate = value === null;
  const classes = [
    styles.progress,
    indeterminate ? styles.indeterminate : '',
    size === 'small' ? styles.small : '',
    tone === 'success' ? styles.success : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={indeterminate ? undefined : value}
    >
      <div className={styles.bar} style={indeterminate ? undefined : { width: `${value}%` }} />
    </div>
  );
}
