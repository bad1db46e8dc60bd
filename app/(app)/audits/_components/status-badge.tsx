// Status badge for audits and sitemap files, coloured by status.
import { Badge } from '@/components/ui/badge';
import { statusLabel, statusTone } from '@/lib/audits/labels';

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <Badge tone={statusTone(status)} testId={testId}>
      {statusLabel(status)}
    </Badge>
  );
}
