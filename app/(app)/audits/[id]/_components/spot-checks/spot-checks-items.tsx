'use client';
// A finished run's checked rows, one page at a time (the API's cursor): URL, reason, verdict with its
// explanation, final status, the hop chain in order, noindex, canonical and time. Stacked rows at phone width.
import { BreakableUrl } from '@/components/ui/breakable-url';
import { type DataColumn, DataTable } from '@/components/ui/data-table';
import { formatCount } from '@/lib/core/format';
import { reasonLabel } from '@/lib/findings/format';
import { safeHref } from '@/lib/findings/links';
import type { SpotCheckItemDto } from '@/lib/spot-check/schema';
import { VerdictBadge } from './spot-checks-verdict';
import spotItems from './spot-items.module.css';

/** A stored URL: a link only when safeHref allows it (never javascript:, data: or a clipped URL). */
function UrlText({ url }: { url: string }) {
  const href = safeHref(url);
  return href ? (
    <a className={`mono ${spotItems['spot-url']}`} href={href} target="_blank" rel="noreferrer noopener">
      <BreakableUrl url={url} />
    </a>
  ) : (
    <span className={`mono ${spotItems['spot-url']}`}>
      <BreakableUrl url={url} />
    </span>
  );
}

function HopChain({ item }: { item: SpotCheckItemDto }) {
  if (item.chain.length === 0) return <span className="muted">no answer</span>;
  return (
    <details className={spotItems['spot-hops']}>
      <summary>{item.chain.length === 1 ? '1 response' : `${item.chain.length} responses`}</summary>
      <ol>
        {item.chain.map((hop, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a chain's order is its identity and never changes
          <li key={index} data-testid="spot-hop">
            <span className={spotItems['spot-hops__status']}>{hop.status}</span> <UrlText url={hop.url} />
            {hop.location ? <span className="muted small"> → Location: {hop.location}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

const COLUMNS: DataColumn<SpotCheckItemDto>[] = [
  {
    id: 'url',
    header: 'URL',
    cellClassName: spotItems['spot-items__url'],
    cell: (item) => <UrlText url={item.url} />,
  },
  {
    id: 'reason',
    header: 'Reason',
    cellClassName: spotItems['spot-items__nowrap'],
    cell: (item) => reasonLabel(item.reason),
  },
  {
    id: 'verdict',
    header: 'Verdict',
    cell: (item) => (
      <div className={spotItems['spot-items__verdict']}>
        <VerdictBadge verdict={item.verdict} />
        <span className="small">{item.explanation}</span>
      </div>
    ),
  },
  {
    id: 'final',
    header: 'Final',
    isNumeric: true,
    cellClassName: spotItems['spot-items__nowrap'],
    cell: (item) => item.finalStatus ?? '—',
  },
  { id: 'hops', header: 'Hops', cell: (item) => <HopChain item={item} /> },
  { id: 'noindex', header: 'Noindex', cell: (item) => (item.noindex ? 'Yes' : 'No') },
  {
    id: 'canonical',
    header: 'Canonical',
    cell: (item) => (item.canonical ? <UrlText url={item.canonical} /> : '—'),
  },
  { id: 'ms', header: 'ms', isNumeric: true, cell: (item) => formatCount(item.ms) },
];

export function SpotChecksItems({ items }: { items: SpotCheckItemDto[] }) {
  return (
    <DataTable
      columns={COLUMNS}
      rows={items}
      rowKey={(item) => item.findingId}
      rowProps={(item) => ({ 'data-testid': 'spot-item', 'data-verdict': item.verdict })}
      className={spotItems['spot-items']}
      wrapClassName={spotItems['spot-items-wrap']}
      testId="spot-items"
    />
  );
}
