// Status badge for audits and sitemap files, coloured by status; `warned`: a succeeded audit with a
// prominent warning (lib/audits/schema.ts: PROMINENT_WARNINGS).
import { Badge } from '@/components/ui/badge';
import { statusLabel, statusTone } from '@/lib/audits/labels';

export function StatusBadge({
  status,
  testId,
  warned = false,
}: {
  status: string;
  testId?: string;
  warned?: boolean;
}) {
  return (
    <Badge tone={statusTone(status, warned)} testId={testId}>
      {statusLabel(status, warned)}
    </Badge>
  );
}
