// Which list the audit opens on and what an empty list says (pure): the first list with rows, and an
// empty list never claims more than is true (nothing to prune is not news when everything is held).
import { formatCount } from '@/lib/core/format';
import type { FindingList, FindingsOverview } from '@/lib/findings/schema';

/** Prune, then held, then add: the first that has rows (prune when none has). */
export function firstNonEmptyList(findings: Pick<FindingsOverview, FindingList>): FindingList {
  const order: FindingList[] = ['prune', 'held', 'add'];
  return order.find((list) => findings[list].total > 0) ?? 'prune';
}

function urls(n: number): string {
  return `${formatCount(n)} declared ${n === 1 ? 'URL is' : 'URLs are'}`;
}

/** What an empty list says, from the audit's counts and whether the crawl overlaps the sitemap at all. */
export function emptyListMessage(
  list: FindingList,
  findings: Pick<FindingsOverview, FindingList | 'addExcluded'>,
  { hasNoOverlap = false }: { hasNoOverlap?: boolean } = {},
): string {
  if (hasNoOverlap && list !== 'held')
    return 'Nothing here can be trusted yet: no declared URL appears in the crawl. Check that this is the right crawl export (and the right normalization), then reconcile again.';
  if (list === 'prune')
    return findings.held.total > 0
      ? `Nothing to prune yet: ${urls(findings.held.total)} held until they can be judged (see the Held list).`
      : 'Nothing to prune: the crawl backs up every declared URL.';
  if (list === 'add') {
    const left = Object.values(findings.addExcluded).reduce((sum, n) => sum + n, 0);
    return left > 0
      ? `Nothing to add: every indexable HTML page the crawl found is declared (${formatCount(left)} other crawled ${left === 1 ? 'URL is' : 'URLs are'} counted under “Not added”).`
      : 'Nothing to add: every indexable page the crawl found is declared.';
  }
  return 'Nothing is held: every declared URL could be judged.';
}
