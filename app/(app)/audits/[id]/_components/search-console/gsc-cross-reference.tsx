'use client';
// Search Console against our findings, in the audit page's Search Console section: per
// reason bucket Google names URLs with, how many the audit declares and where those stand in our review
// (pruned for the same reason, pruned for another, held, not flagged), and the indexed URLs we would
// prune ("prune with care"). Each count of review rows links to the review filtered to exactly them.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { formatCount } from '@/lib/core/format';
import type { GscFilter, GscMatch } from '@/lib/findings/evidence/gsc';
import { type FindingView, reasonLabel, toSearchParams } from '@/lib/findings/format';
import type { FindingList } from '@/lib/findings/schema';
import { useGscCrossReference } from '@/lib/gsc/xref/hooks';
import { gscBucketLabel } from '@/lib/gsc/xref/labels';
import type { GscCrossReferenceRow } from '@/lib/gsc/xref/types';
import styles from './search-console.module.css';

type ReviewFilter = { list: FindingList; gsc: GscFilter; gscMatch?: GscMatch };

/** A count, linked to the review rows it counts (plain when there are none). */
function CountLink({ n, filter, label }: { n: number | null; filter: ReviewFilter; label: string }) {
  // Null outside the app router (a test's static render): the link is then relative to the page.
  const pathname = usePathname() ?? '';
  if (n === null) return <span className="muted">—</span>;
  if (n === 0) return <span className="muted">0</span>;
  const view: FindingView = { ...filter, sort: 'id' };
  return (
    <Link href={`${pathname}?${toSearchParams(view)}#findings`} aria-label={`${formatCount(n)} ${label}`}>
      {formatCount(n)}
    </Link>
  );
}

/** A count's cell: labelled for the phone layout (each row a card), its value in one element. */
function Cell({
  label,
  children,
  title,
  colSpan,
  className = '',
}: {
  label: string;
  children: ReactNode;
  title?: string;
  colSpan?: number;
  className?: string;
}) {
  return (
    <td
      className={`num ${styles['gsc-xref__cell']} ${className}`.trim()}
      data-label={label}
      title={title}
      colSpan={colSpan}
    >
      <span>{children}</span>
    </td>
  );
}

function BucketRow({ row }: { row: GscCrossReferenceRow }) {
  const name = gscBucketLabel(row.bucket);
  const ours = row.matchingReasons.map(reasonLabel).join(', ');
  return (
    <tr className={styles['gsc-xref__row']} data-testid="gsc-xref-row" data-bucket={row.bucket}>
      <th scope="row" className={styles['gsc-xref__bucket']}>
        Not indexed: {name}
        <span className={styles['gsc-xref__reason']}>{row.reasons.join('; ')}</span>
      </th>
      <Cell label="URLs">{formatCount(row.named)}</Cell>
      <Cell label="Declared">{formatCount(row.declared)}</Cell>
      <Cell
        label="Pruned, same reason"
        title={ours ? `Our reasons: ${ours}` : 'Only Google can tell this reason'}
      >
        <CountLink
          n={row.pruneMatching}
          filter={{ list: 'prune', gsc: row.bucket, gscMatch: 'agrees' }}
          label={`pruned for the same reason (${name})`}
        />
      </Cell>
      <Cell label="Pruned, other reason">
        <CountLink
          n={row.pruneOther}
          filter={
            row.pruneMatching === null
              ? { list: 'prune', gsc: row.bucket }
              : { list: 'prune', gsc: row.bucket, gscMatch: 'disagrees' }
          }
          label={`pruned for another reason (${name})`}
        />
      </Cell>
      <Cell label="Held">
        <CountLink n={row.held} filter={{ list: 'held', gsc: row.bucket }} label={`held (${name})`} />
      </Cell>
      <Cell label="Not flagged">{formatCount(row.notFlagged)}</Cell>
    </tr>
  );
}

export function GscCrossReference({ auditId }: { auditId: string }) {
  const xref = useGscCrossReference(auditId);
  if (xref.isPending) return null;
  if (xref.isError) {
    return (
      <p className="alert alert--danger" role="alert">
        Could not read the cross-reference with the findings: {xref.error.message}
      </p>
    );
  }
  const { rows, indexed } = xref.data;
  // Nothing imported names a URL yet: the gap table above already says what to import.
  if (rows.length === 0 && indexed.named === 0) return null;
  return (
    <div className="stack gsc-xref" data-testid="gsc-cross-reference">
      <h3>Search Console against our findings</h3>
      <div className="table-wrap">
        <table className={`table ${styles['gsc-xref__table']}`}>
          <thead className={styles['gsc-xref__head']}>
            <tr>
              <th scope="col">Google says</th>
              <th scope="col" className="num">
                URLs
              </th>
              <th scope="col" className="num">
                Declared
              </th>
              <th scope="col" className="num">
                Pruned, same reason
              </th>
              <th scope="col" className="num">
                Pruned, other reason
              </th>
              <th scope="col" className="num">
                Held
              </th>
              <th scope="col" className="num">
                Not flagged
              </th>
            </tr>
          </thead>
          <tbody className={styles['gsc-xref__body']}>
            {rows.map((row) => (
              <BucketRow key={row.bucket} row={row} />
            ))}
            <tr className={styles['gsc-xref__row']} data-testid="gsc-xref-indexed">
              <th scope="row" className={styles['gsc-xref__bucket']}>
                Indexed
              </th>
              <Cell label="URLs">{formatCount(indexed.named)}</Cell>
              <Cell label="Declared">{formatCount(indexed.declared)}</Cell>
              <Cell label="On the prune list" colSpan={2} className={styles['gsc-xref__care']}>
                <span data-testid="gsc-xref-care">
                  <CountLink
                    n={indexed.prune}
                    filter={{ list: 'prune', gsc: 'indexed' }}
                    label="indexed URLs on the prune list (prune with care)"
                  />
                </span>
                {indexed.prune > 0 ? ' on the prune list: prune with care' : null}
              </Cell>
              <Cell label="Held">
                <CountLink
                  n={indexed.held}
                  filter={{ list: 'held', gsc: 'indexed' }}
                  label="indexed URLs held"
                />
              </Cell>
              <Cell label="Not flagged">{formatCount(indexed.notFlagged)}</Cell>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="muted small">
        URLs is how many URLs the latest import puts in the row; Declared, how many of them a sitemap of this
        audit lists. Those are split into pruned for the reason Google gives (we agree), pruned for another
        reason, held, and not flagged by us at all (Google sees a problem we do not). Indexed URLs on the
        prune list still bring visitors, so prune them with care. Counts link to those rows in the review.
        {xref.data.unknownDeclared > 0
          ? ` ${formatCount(xref.data.unknownDeclared)} declared URLs are in no import.`
          : ''}
      </p>
    </div>
  );
}
