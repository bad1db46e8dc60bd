// A verdict's badge (its name comes from lib/spot-check/labels.ts, shared with the report's PDF).
import { verdictLabel } from '@/lib/spot-check/labels';
import type { Verdict } from '@/lib/spot-check/types';
import styles from './spot-checks.module.css';

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span className={`spot-verdict-badge ${styles[`spot-verdict--${verdict}`] ?? ''}`}>
      {verdictLabel(verdict)}
    </span>
  );
}
