import { describe, expect, it } from 'vitest';
import type { DeliveryStatus } from '@/lib/sites/schema';
import { deliveryBadge } from './delivery-words';

const STATUSES: DeliveryStatus[] = ['pending', 'delivered', 'failed', 'dropped'];

describe('deliveryBadge', () => {
  it('says a pending delivery of an active webhook is being retried', () => {
    expect(deliveryBadge('pending', false)).toEqual({ tone: 'info', label: 'Retrying' });
  });

  it('says a pending delivery of a paused webhook is held, not retrying', () => {
    expect(deliveryBadge('pending', true)).toEqual({ tone: 'warning', label: 'Held' });
  });

  it('names a finished delivery the same whether the webhook is paused or not', () => {
    for (const status of STATUSES.filter((s) => s !== 'pending'))
      expect(deliveryBadge(status, true)).toEqual(deliveryBadge(status, false));
    expect(deliveryBadge('delivered', false)).toEqual({ tone: 'success', label: 'Delivered' });
    expect(deliveryBadge('failed', false)).toEqual({ tone: 'danger', label: 'Failed' });
    expect(deliveryBadge('dropped', true)).toEqual({ tone: 'warning', label: 'Dropped' });
  });
});
