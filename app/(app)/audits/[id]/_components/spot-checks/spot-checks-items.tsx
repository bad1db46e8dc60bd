'use client';
// A finished run's checked rows, one page at a time (the API's cursor): URL, reason, verdict with its
// explanation, final status, the hop chain in order, noindex, canonical and time. Stacked rows at phone width.
import { BreakableUrl } from '@/components/ui/breakable-url';
import { formatCount } from '@/lib/audits/format';
import { reasonLabel } from '@/lib/findings/format';
import { safeHref } from '@/lib/findings/links';
import type { SpotCheckItemDto } from '@/lib/spot-check/schema';
import { VerdictBadge } from './spot-checks-verdict';

/** A stored URL: a link only when safeHref allows it (never javascript:, data: or a clipped URL). */
function UrlText({ url }: { url: string }) {
  const href = safeHref(url);
  return href ? (
    <a className="mono spot-url" href={href} target="_blank" rel="noreferrer noopener">
      <BreakableUrl url={url} />
    </a>
  ) : (
    <span className="mono spot-url">
      <BreakableUrl url={url} />
    </span>
  );
}

function HopChain({ item }: { item: SpotCheckItemDto }) {
  if (item.chain.length === 0) return <span className="muted">no answer</span>;
  return (
    <details className="spot-hops">
      <summary>{item.chain.length === 1 ? '1 response' : `${item.chain.length} responses`}</summary>
      <ol>
        {item.chain.map((hop, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a chain's order is its identity and never changes
          <li key={index}>
            <span className="spot-hops__status">{hop.status}</span> <UrlText url={hop.url} />
            {hop.location ? <span className="muted small"> → Location: {hop.location}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function SpotChecksItems({ items }: { items: SpotCheckItemDto[] }) {
  return (
    <div className="spot-items-wrap">
      <table className="spot-items" data-testid="spot-items">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Reason</th>
            <th scope="col">Verdict</th>
            <th scope="col" className="num">
              Final
            </th>
            <th scope="col">Hops</th>
            <th scope="col">Noindex</th>
            <th scope="col">Canonical</th>
            <th scope="col" className="num">
              ms
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.findingId} data-testid="spot-item" data-verdict={item.verdict}>
              <td data-label="URL" className="spot-items__url">
                <UrlText url={item.url} />
              </td>
              <td data-label="Reason" className="spot-items__nowrap">
                {reasonLabel(item.reason)}
              </td>
              <td data-label="Verdict">
                <div className="spot-items__verdict">
                  <VerdictBadge verdict={item.verdict} />
                  <span className="small">{item.explanation}</span>
                </div>
              </td>
              <td data-label="Final" className="num spot-items__nowrap">
                {item.finalStatus ?? '—'}
              </td>
              <td data-label="Hops">
                <HopChain item={item} />
              </td>
              <td data-label="Noindex">{item.noindex ? 'Yes' : 'No'}</td>
              <td data-label="Canonical">{item.canonical ? <UrlText url={item.canonical} /> : '—'}</td>
              <td data-label="ms" className="num">
                {formatCount(item.ms)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
