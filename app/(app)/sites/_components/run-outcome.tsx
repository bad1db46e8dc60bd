// A run's outcome in one place: "Complete" (succeeded with every file read: it counts in the change
// history), else its status, and once finished a note that it writes no change events.
import { Badge } from '@/components/ui/badge';
import { isActiveStatus } from '@/lib/audits/labels';
import type { SiteRunDto } from '@/lib/sites/schema';
import { StatusBadge } from '../../audits/_components/status-badge';
import styles from './run-outcome.module.css';

export function RunOutcome({ run }: { run: Pick<SiteRunDto, 'status' | 'complete'> }) {
  if (run.complete) {
    return (
      <Badge tone="success" testId="run-complete">
        Complete
      </Badge>
    );
  }
  return (
    <span className={styles.outcome}>
      <StatusBadge status={run.status} testId="run-status" />
      {isActiveStatus(run.status) ? null : <span className="muted small">not in the history</span>}
    </span>
  );
}
