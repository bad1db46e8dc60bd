// A webhook delivery's state in a word and a colour. A pending delivery of a paused webhook is not
// retrying: it is held until the webhook is resumed, and says so.
import type { BadgeTone } from '@/components/ui/badge';
import type { DeliveryStatus } from '@/lib/sites/schema';

const DELIVERY_TONES: Record<DeliveryStatus, BadgeTone> = {
  pending: 'info',
  delivered: 'success',
  failed: 'danger',
  dropped: 'warning',
};
const DELIVERY_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  dropped: 'Dropped',
};

export function deliveryBadge(status: DeliveryStatus, paused: boolean): { tone: BadgeTone; label: string } {
  if (status === 'pending' && paused) return { tone: 'warning', label: 'Held' };
  return { tone: DELIVERY_TONES[status], label: DELIVERY_LABELS[status] };
}
