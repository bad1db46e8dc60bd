// Whether a finished run is complete (succeeded with every file read: it counts in the change history) or
// not (partial, failed or cancelled: listed and charted, but it writes no change events).
import { Badge } from '@/components/ui/badge';
import { isActiveStatus } from '@/lib/audits/labels';
import type { SiteRunDto } from '@/lib/sites/schema';

export function CompleteBadge({ run }: { run: Pick<SiteRunDto, 'status' | 'complete'> }) {
  if (isActiveStatus(run.status)) return null;
  return (
    <Badge tone={run.complete ? 'success' : 'neutral'} dot={false} testId="run-complete">
      {run.complete ? 'Complete' : 'Not in history'}
    </Badge>
  );
}
