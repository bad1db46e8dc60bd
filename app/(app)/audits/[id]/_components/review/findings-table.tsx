'use client';
import { type ComponentPropsWithRef, memo, type RefObject, useEffect, useRef } from 'react';
import { isBadTargetStatus, shortTargetUrl, targetKindLabel } from '@/components/findings/target-words';
// One page of findings as a grid with row focus (roving tabindex) and row selection: the URL with its
// sitemap file and signals, the reason, what the reason points to (redirect target, canonical, variant, with
// its status), status, crawl depth, inlinks (when the crawl had them), date, the latest finished
// spot-check's verdict ("Live"), what Search Console says of the URL now (with "prune with care" on prune
// rows Google has indexed; these two columns only once a row of the page has one) and decision. Column headers
// sort (the sort lives in the URL). Keys are handled by the page (use-review-keys); this component only
// renders and reports clicks. Without `canSelect` (a viewer) there are no checkboxes and nothing is
// selectable: the rows are still focusable and open the side panel. In a narrow box each row is a card
// (review.module.css): every cell says what it is (data-label), and sorting is the filters' Sort select.
import { BreakableUrl } from '@/components/ui/breakable-url';
import { formatCount } from '@/lib/core/format';
import { reasonColour } from '@/lib/findings/chart-data';
import { decisionLabel, reasonLabel, sitemapFileLabel } from '@/lib/findings/format';
import { signalInfo } from '@/lib/findings/reasons';
import type { FindingDto, FindingGsc, FindingList, FindingPage, FindingSort } from '@/lib/findings/schema';
import { gscBadgeText } from '@/lib/gsc/xref/labels';
import { VerdictBadge } from '../spot-checks/spot-checks-verdict';
import styles from './review.module.css';
import { SortHeader } from './sort-header';

/** Declared rows show their lastmod; add rows were never declared, so they show when they were crawled. */
function dateCell(finding: FindingDto) {
  const value =
    finding.list === 'add' ? (finding.evidence.crawledAt ?? finding.evidence.crawlTime) : finding.lastmod;
  return typeof value === 'string' && value ? value.slice(0, 10) : <span className="muted">—</span>;
}

const dash = <span className="muted">—</span>;

/** "→ /new (404)": the target wraps after its slashes like the URL (never cut: nothing else shows it
 * whole), the status stays beside its end. */
function TargetCell({ finding }: { finding: FindingDto }) {
  const { target } = finding;
  if (!target) return dash;
  return (
    <span className={styles['target-cell']} title={`${targetKindLabel(target.kind)}: ${target.url}`}>
      <span
        className={`${styles['target-cell__line']} mono${isBadTargetStatus(target.status) ? ` ${styles['target-cell--bad']}` : ''}`}
      >
        <span className={styles['target-cell__url']}>
          → <BreakableUrl url={shortTargetUrl(target.url, finding.url)} />
        </span>
        {target.status !== null ? (
          <span className={styles['target-cell__status']}> ({target.status})</span>
        ) : null}
      </span>
      <span className={styles['target-cell__kind']}>{targetKindLabel(target.kind)}</span>
    </span>
  );
}

/** A checkbox inside a label that gives it a 44 px box on touch screens (review.module.css): the label, not
 * the tiny box, takes the tap. `text` is said beside it on a card, where there is no column header. */
function CheckHit({ text, ...input }: { text?: string } & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  return (
    <label className={styles['check-hit']}>
      <input type="checkbox" {...input} />
      {text ? (
        <span className={styles['check-hit__text']} aria-hidden="true">
          {text}
        </span>
      ) : null}
    </label>
  );
}

/** Search Console's state of a row: "Indexed", "Not indexed: 404"; on a prune row Google has indexed,
 * "Indexed — prune with care" (we would drop a page that may still bring visitors). */
export function GscBadge({ gsc, list }: { gsc: FindingGsc; list: FindingList }) {
  const isCare = gsc.state === 'indexed' && list === 'prune';
  const modifier = isCare ? 'care' : gsc.state;
  return (
    <span
      className={`${styles['gsc-badge']} ${styles[`gsc-badge--${modifier}`] ?? ''}`}
      data-testid={isCare ? 'gsc-prune-with-care' : undefined}
      title={gsc.reason ?? undefined}
    >
      {isCare ? 'Indexed — prune with care' : gscBadgeText(gsc)}
    </span>
  );
}

const Row = memo(function Row({
  finding,
  index,
  hasInlinks,
  hasTargets,
  hasLive,
  hasGsc,
  isFocusable,
  isSelected,
  canSelect,
  onFocusRow,
  onToggle,
  onOpen,
}: {
  finding: FindingDto;
  index: number;
  hasInlinks: boolean;
  hasTargets: boolean;
  hasLive: boolean;
  hasGsc: boolean;
  canSelect: boolean;
  isFocusable: boolean;
  isSelected: boolean;
  onFocusRow: (index: number) => void;
  onToggle: (id: number) => void;
  onOpen: (index: number) => void;
}) {
  const more = finding.reasons.length - 1;
  const otherFiles = finding.sitemapFiles.length - 1;
  return (
    <tr
      data-testid="finding-row"
      data-id={finding.id}
      data-decision={finding.decision}
      data-row-index={index}
      aria-selected={canSelect ? isSelected : undefined}
      data-current={isFocusable || undefined}
      tabIndex={isFocusable ? 0 : -1}
      className={styles['finding-row']}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusRow(index);
      }}
      onClick={(event) => {
        // A tap on the checkbox's label selects (the checkbox's own click handles it); it does not open.
        if (event.target instanceof Element && event.target.closest(`.${styles['finding-row__check']}`))
          return;
        onOpen(index);
      }}
    >
      {canSelect ? (
        <td className={styles['finding-row__check']}>
          <CheckHit
            tabIndex={-1}
            checked={isSelected}
            aria-label={`Select ${finding.url}`}
            onClick={(event) => {
              // Selecting is not opening the panel, but the row becomes the one keys act on.
              event.stopPropagation();
              onFocusRow(index);
            }}
            onChange={() => onToggle(finding.id)}
          />
        </td>
      ) : null}
      <td className={styles['finding-row__url']} data-testid="finding-url">
        <div className={styles['finding-row__stack']}>
          <span className="mono" title={finding.url}>
            <BreakableUrl url={finding.url} />
          </span>
          {finding.sitemapFile ? (
            <span className={styles['finding-row__file']} data-testid="finding-file">
              {sitemapFileLabel(finding.sitemapFile)}
              {otherFiles > 0 ? ` +${otherFiles} more ${otherFiles === 1 ? 'file' : 'files'}` : ''}
            </span>
          ) : null}
          {finding.signals.length > 0 ? (
            <span className={styles['signal-badges']}>
              {finding.signals.map((signal) => (
                <span
                  key={signal}
                  className={styles['signal-badge']}
                  data-signal={signal}
                  title={signalInfo(signal).definition}
                >
                  {signalInfo(signal).label}
                </span>
              ))}
            </span>
          ) : null}
        </div>
      </td>
      <td className={styles['finding-row__reason']}>
        <span className={styles['reason-tag']}>
          <span
            className="reason-dot"
            style={{ background: reasonColour(finding.reason) }}
            aria-hidden="true"
          />
          {reasonLabel(finding.reason)}
        </span>
        {more > 0 ? (
          <span className="muted small" title={finding.reasons.slice(1).map(reasonLabel).join(', ')}>
            {' '}
            +{more}
          </span>
        ) : null}
      </td>
      {hasTargets ? (
        <td className={styles['finding-row__target']} data-testid="finding-target">
          <TargetCell finding={finding} />
        </td>
      ) : null}
      <td className="num" data-label="HTTP">
        {finding.status ?? dash}
      </td>
      <td className="num" data-label="Depth">
        {finding.depth ?? dash}
      </td>
      {hasInlinks ? (
        <td className="num" data-label="Inlinks">
          {finding.inlinks === null ? dash : formatCount(finding.inlinks)}
        </td>
      ) : null}
      <td className="num" data-label={finding.list === 'add' ? 'Crawled' : 'Lastmod'}>
        {dateCell(finding)}
      </td>
      {hasLive ? (
        <td
          className={styles['finding-row__live']}
          data-label="Live"
          data-testid="finding-live"
          data-verdict={finding.spotCheck?.verdict}
        >
          {finding.spotCheck ? <VerdictBadge verdict={finding.spotCheck.verdict} /> : dash}
        </td>
      ) : null}
      {hasGsc ? (
        <td
          className={styles['finding-row__gsc']}
          data-label="Search Console"
          data-testid="finding-gsc"
          data-gsc-state={finding.gsc?.state}
        >
          {finding.gsc ? <GscBadge gsc={finding.gsc} list={finding.list} /> : dash}
        </td>
      ) : null}
      <td className={styles['finding-row__decision']}>
        <span
          className={`${styles.decision} ${styles[`decision--${finding.decision}`]}`}
          data-testid="finding-decision"
        >
          {decisionLabel(finding.decision)}
        </span>
      </td>
    </tr>
  );
});

export function FindingsTable({
  items,
  columns,
  list,
  hasInlinks,
  emptyMessage,
  sort,
  focusIndex,
  focusRequest,
  isSelected,
  canSelect = true,
  pageState,
  onFocusRow,
  onToggle,
  onTogglePage,
  onOpen,
  onSort,
  tableRef,
}: {
  items: FindingDto[];
  /** FindingPage.columns: the Live and Search Console columns, decided for the audit. */
  columns: FindingPage['columns'];
  list: FindingList;
  /** Show the inlinks column (the crawl export had one). */
  hasInlinks: boolean;
  emptyMessage: string;
  sort: FindingSort;
  focusIndex: number;
  /** Changes whenever DOM focus should move to the focused row (keyboard moves, not clicks). */
  focusRequest: number;
  isSelected: (id: number) => boolean;
  /** The user may decide (a reviewer or admin): rows have checkboxes and can be selected. The review
   * always says; the default is for tests that render the table alone. */
  canSelect?: boolean;
  pageState: 'none' | 'some' | 'all';
  onFocusRow: (index: number) => void;
  onToggle: (id: number) => void;
  onTogglePage: () => void;
  onOpen: (index: number) => void;
  onSort: (sort: FindingSort) => void;
  tableRef: RefObject<HTMLTableElement | null>;
}) {
  const headerBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (headerBox.current) headerBox.current.indeterminate = pageState === 'some';
  }, [pageState]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusRequest is the trigger; focusIndex is read with it
  useEffect(() => {
    if (focusRequest === 0) return;
    const row = tableRef.current?.querySelector<HTMLElement>(`tr[data-row-index="${focusIndex}"]`);
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
  }, [focusRequest]);

  // A decided row can leave a filtered view while it has focus; focus then falls to the body (no blur
  // event), so put it on the row that took its place.
  const hasFocus = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change; focusIndex is read with them
  useEffect(() => {
    if (!hasFocus.current || document.activeElement !== document.body) return;
    tableRef.current?.querySelector<HTMLElement>(`tr[data-row-index="${focusIndex}"]`)?.focus();
  }, [items]);

  const header = { sort, onSort };
  // Add rows are pages to declare as they are: no reason of theirs points elsewhere.
  const hasTargets = list !== 'add';
  // The Live and Search Console columns show once the audit has something to say there (a finished
  // spot-check, a Search Console import or inspection), on every page alike; before that, columns of
  // dashes would only take the URL's room.
  const hasLive = columns.live;
  const hasGsc = columns.gsc;
  return (
    <div className={`table-wrap ${styles['findings-table-scroll']}`}>
      <table
        onFocus={() => {
          hasFocus.current = true;
        }}
        onBlur={(event) => {
          hasFocus.current = event.currentTarget.contains(event.relatedTarget as Node | null);
        }}
        ref={tableRef}
        className={`table ${styles['findings-table']}${hasInlinks ? ' findings-table--inlinks' : ''}`}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: rows are focusable and selectable (aria-selected), which needs grid semantics
        role="grid"
        aria-multiselectable={canSelect || undefined}
        aria-label="Findings"
        aria-describedby="findings-keys-help"
      >
        <thead>
          <tr>
            {canSelect ? (
              <th scope="col" className={`${styles['finding-row__check']} ${styles['col-check']}`}>
                <CheckHit
                  text="All rows on this page"
                  ref={headerBox}
                  checked={pageState === 'all'}
                  aria-label="Select all rows on this page"
                  onChange={onTogglePage}
                  disabled={items.length === 0}
                />
              </th>
            ) : null}
            <SortHeader {...header} column="url" label="URL" className={styles['col-url']} />
            <SortHeader {...header} column="reason" label="Reason" className={styles['col-reason']} />
            {hasTargets ? (
              <th scope="col" className={styles['col-target']}>
                Target
              </th>
            ) : null}
            <SortHeader {...header} column="status" label="HTTP" className={`${styles['col-num']} num`} />
            <SortHeader {...header} column="depth" label="Depth" className={`${styles['col-num']} num`} />
            {hasInlinks ? (
              <SortHeader
                {...header}
                column="inlinks"
                label="Inlinks"
                className={`${styles['col-inlinks']} num`}
              />
            ) : null}
            {list === 'add' ? (
              <th scope="col" className={`${styles['col-date']} num`}>
                Crawled
              </th>
            ) : (
              <SortHeader
                {...header}
                column="lastmod"
                label="Lastmod"
                className={`${styles['col-date']} num`}
              />
            )}
            {hasLive ? (
              <th scope="col" className={styles['col-live']} title="The latest finished spot-check's verdict">
                Live
              </th>
            ) : null}
            {hasGsc ? (
              <th
                scope="col"
                className={styles['col-gsc']}
                title="What Google Search Console says of the URL (latest import)"
              >
                Search Console
              </th>
            ) : null}
            <SortHeader {...header} column="decision" label="Decision" className={styles['col-decision']} />
          </tr>
        </thead>
        <tbody>
          {items.map((finding, index) => (
            <Row
              key={finding.id}
              finding={finding}
              index={index}
              hasInlinks={hasInlinks}
              hasTargets={hasTargets}
              hasLive={hasLive}
              hasGsc={hasGsc}
              isFocusable={index === focusIndex}
              isSelected={isSelected(finding.id)}
              canSelect={canSelect}
              onFocusRow={onFocusRow}
              onToggle={onToggle}
              onOpen={onOpen}
            />
          ))}
        </tbody>
      </table>
      {items.length === 0 ? <p className={`muted ${styles['findings-empty']}`}>{emptyMessage}</p> : null}
    </div>
  );
}
