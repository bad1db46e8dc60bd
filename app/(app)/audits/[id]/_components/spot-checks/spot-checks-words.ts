// The spot-check comparison's words: a share with its sample size, a side's final status.
import { formatCount } from '@/lib/core/format';
import type { SpotCheckSide } from '@/lib/spot-check/schema';
import type { Proportion } from '@/lib/spot-check/stats';

export function share(p: Proportion | undefined): string {
  if (!p || p.value === null) return '—';
  return `${(p.value * 100).toFixed(p.value > 0 && p.value < 0.1 ? 1 : 0)} % (n = ${formatCount(p.n)})`;
}

export function statusText(side: SpotCheckSide): string {
  return side.finalStatus === null ? 'no answer' : String(side.finalStatus);
}
