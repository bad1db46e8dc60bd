'use client';
// Two runs of a site compared (older `from` → newer `to`): a chip per type of difference with its count
// (choosing one filters the rows, `?type=` in the URL), then the rows of that type a page at a time, each
// with its details: lastmod before → after, a move's target, a finding's list and reason on each side.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { EmptyState } from '@/components/ui/empty-state';
import chipStyles from '@/components/ui/filter-chips.module.css';
import { formatCount } from '@/lib/core/format';
import { formatLastmod, reasonLabel } from '@/lib/findings/format';
import { useAuditDiff } from '@/lib/sites/hooks';
import { runBaseName, runTimeLabels } from '@/lib/sites/run-times';
import { type AuditDiffDto, type AuditDiffItem, DIFF_TYPES, type DiffType } from '@/lib/sites/schema';
import list from '../../_components/change-list.module.css';
import { DIFF_LABELS, DIFF_ROW_LABELS, listName, onListText } from '../../_components/labels';

const TONES: Record<DiffType, BadgeTone> = {
  url_added: 'success',
  url_removed: 'danger',
  url_lastmod_changed: 'info',
  new_problem: 'warning',
  fixed_problem: 'success',
  reason_changed: 'info',
  moved: 'neutral',
};

/** What a row says beside its URL; null when its type says it all (an added URL without a lastmod). */
function diffDetail(item: AuditDiffItem): ReactNode {
  switch (item.type) {
    case 'moved':
      return (
        <>
          now redirects to <span className={list.url}>{item.target ?? '—'}</span>
        </>
      );
    case 'url_lastmod_changed':
      return (
        <>
          lastmod {formatLastmod(item.previousLastmod)} →{' '}
          <strong>{formatLastmod(item.currentLastmod)}</strong>
        </>
      );
    case 'new_problem':
      return <>Now on {onListText(item.toList, item.toReason)}</>;
    case 'fixed_problem':
      return <>No longer on {onListText(item.fromList, item.fromReason)}</>;
    case 'reason_changed':
      return item.fromList === item.toList && item.toList !== null ? (
        <>
          On {listName(item.toList)}: {reasonLabel(item.fromReason ?? '')} →{' '}
          <strong>{reasonLabel(item.toReason ?? '')}</strong>
        </>
      ) : (
        <>
          Was on {onListText(item.fromList, item.fromReason)}, now on{' '}
          <strong>{onListText(item.toList, item.toReason)}</strong>
        </>
      );
    case 'url_added':
      return item.currentLastmod ? <>lastmod {formatLastmod(item.currentLastmod)}</> : null;
    default:
      return item.previousLastmod ? <>had lastmod {formatLastmod(item.previousLastmod)}</> : null;
  }
}

function detailOf(item: AuditDiffItem): ReactNode {
  const detail = diffDetail(item);
  return detail === null ? null : <span className="small">{detail}</span>;
}

function DiffRows({ from, to, type }: { from: string; to: string; type: DiffType | null }) {
  const stack = useCursorStack();
  const diff = useAuditDiff(from, to, type, stack.cursor);
  if (diff.isError && !diff.data)
    return <Alert title="Could not compare these runs">{diff.error.message}</Alert>;
  if (!diff.data) return <div className="skeleton" style={{ height: '6rem' }} aria-hidden="true" />;
  const items = diff.data.items;
  return (
    <>
      {items.length === 0 ? (
        <EmptyState title="No difference">
          {type
            ? `No ${DIFF_LABELS[type].toLowerCase()} between these runs.`
            : 'These runs declare the same.'}
        </EmptyState>
      ) : (
        <ol className={list.list} data-testid="diff-rows" aria-busy={diff.isPlaceholderData}>
          {items.map((item) => (
            <li
              key={`${item.type}:${item.url}`}
              className={list.item}
              data-testid="diff-row"
              data-type={item.type}
            >
              <span className={list.head}>
                <Badge tone={TONES[item.type]} dot={false}>
                  {DIFF_ROW_LABELS[item.type]}
                </Badge>
                <span className={list.url}>{item.url}</span>
              </span>
              {detailOf(item)}
            </li>
          ))}
        </ol>
      )}
      {stack.page > 1 || diff.data.nextCursor ? (
        <CursorPager stack={stack} nextCursor={diff.data.nextCursor} busy={diff.isPlaceholderData} />
      ) : null}
    </>
  );
}

/** Every row of the diff: a row per type and URL, so the types' counts add up to it. */
function diffTotal(counts: AuditDiffDto['counts']): number {
  return DIFF_TYPES.reduce((sum, type) => sum + counts[type], 0);
}

/** "From <time> to <time>" with each run's name once: a scheduled run's name carries its date already, and
 * two runs of one minute get their seconds (run-times.ts). */
function DiffSides({ from, to }: Pick<AuditDiffDto, 'from' | 'to'>) {
  // Read in the browser (the diff is fetched there), so the reader's zone is safe.
  const times = runTimeLabels([from, to], { withYear: true });
  const fromName = runBaseName(from.name);
  const toName = runBaseName(to.name);
  const isSameName = fromName === toName;
  return (
    <p className="muted" data-testid="diff-sides">
      {isSameName ? `${fromName}: from` : 'From'} the run of{' '}
      <Link href={`/audits/${from.id}`}>{times.get(from.id)}</Link>
      {isSameName ? '' : ` (${fromName})`} to the run of{' '}
      <Link href={`/audits/${to.id}`}>{times.get(to.id)}</Link>
      {isSameName ? '' : ` (${toName})`}
    </p>
  );
}

export function DiffView({ siteId }: { siteId: string }) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const from = searchParams.get('from') ?? '';
  const to = searchParams.get('to') ?? '';
  const asked = searchParams.get('type');
  const type = DIFF_TYPES.includes(asked as DiffType) ? (asked as DiffType) : null;
  // The counts come with any page; the all-types first page is cached for the chips.
  const overview = useAuditDiff(from, to, null, null);
  const setType = (next: DiffType | null) => {
    const params = new URLSearchParams({ from, to });
    if (next) params.set('type', next);
    window.history.replaceState(null, '', `${pathname}?${params}`);
  };
  const back = (
    <p className="small">
      <Link href={`/sites/${siteId}`}>← Back to the site</Link>
    </p>
  );
  if (!from || !to) {
    return (
      <div className="stack">
        {back}
        <Alert tone="warning" title="Two runs are needed">
          Choose two runs in the site's runs table to compare them.
        </Alert>
      </div>
    );
  }
  const data = overview.data;
  return (
    <div className="stack">
      <div className="page-header">
        <div className="page-header__title">
          {back}
          <h1>Compare runs</h1>
          {data ? <DiffSides from={data.from} to={data.to} /> : null}
        </div>
      </div>
      {overview.isError && !data ? (
        <Alert title="Could not compare these runs">{overview.error.message}</Alert>
      ) : (
        <section className="card" aria-label="Differences">
          <div className="card__body stack">
            <fieldset className={chipStyles['reason-chips']}>
              <legend className="visually-hidden">Type of difference</legend>
              <button
                type="button"
                className={chipStyles['filter-chip']}
                aria-pressed={type === null}
                onClick={() => setType(null)}
              >
                All
                <span className={chipStyles['filter-chip__n']} data-testid="diff-count-all">
                  {data ? formatCount(diffTotal(data.counts)) : '…'}
                </span>
              </button>
              {DIFF_TYPES.map((value) => (
                <button
                  key={value}
                  type="button"
                  className={chipStyles['filter-chip']}
                  aria-pressed={type === value}
                  data-testid={`diff-chip-${value}`}
                  onClick={() => setType(type === value ? null : value)}
                >
                  {DIFF_LABELS[value]}
                  <span className={chipStyles['filter-chip__n']} data-testid={`diff-count-${value}`}>
                    {data ? formatCount(data.counts[value]) : '…'}
                  </span>
                </button>
              ))}
            </fieldset>
            <p className="muted small" data-testid="diff-note">
              What the two runs declare, compared. The Changes tab counts a URL as removed only once two
              complete runs in a row miss it; missed once, its removal is pending.
            </p>
            <DiffRows key={type ?? ''} from={from} to={to} type={type} />
          </div>
        </section>
      )}
    </div>
  );
}
