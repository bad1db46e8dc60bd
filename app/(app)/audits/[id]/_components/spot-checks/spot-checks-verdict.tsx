// A verdict's badge (its name comes from lib/spot-check/labels.ts, shared with the report's PDF).
import { verdictLabel } from '@/lib/spot-check/labels';
import type { Verdict } from '@/lib/spot-check/types';
import styles from './spot-checks.module.css';

/** `compact`: smaller, where the badge sits in a line of small text (the shared report's finding rows). */
export function VerdictBadge({ verdict, compact = false }: { verdict: Verdict; compact?: boolean }) {
  const size = compact ? styles['spot-verdict-badge--compact'] : '';
  return (
    <span className={`${styles['spot-verdict-badge']} ${size} ${styles[`spot-verdict--${verdict}`] ?? ''}`}>
      {verdictLabel(verdict)}
    </span>
  );
}
