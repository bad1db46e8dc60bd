'use client';
// One page of findings as a grid with row focus (roving tabindex) and row selection. Keys are handled
// by the page (use-review-keys); this component only renders and reports clicks.
import { memo, type RefObject, useEffect, useRef } from 'react';
import { reasonColour } from '@/lib/findings/chart-data';
import { decisionLabel, reasonLabel, sitemapFileLabel } from '@/lib/findings/format';
import type { FindingDto, FindingList, FindingSort } from '@/lib/findings/schema';

function ariaSort(sort: FindingSort, column: 'url' | 'lastmod') {
  if (sort === column) return 'ascending' as const;
  if (sort === `-${column}`) return 'descending' as const;
  return undefined;
}

/** Declared rows show their lastmod; add rows were never declared, so they show when they were crawled. */
function dateCell(finding: FindingDto) {
  const value =
    finding.list === 'add' ? (finding.evidence.crawledAt ?? finding.evidence.crawlTime) : finding.lastmod;
  return typeof value === 'string' && value ? value.slice(0, 10) : <span className="muted">—</span>;
}

const Row = memo(function Row({
  finding,
  index,
  isFocusable,
  isSelected,
  onFocusRow,
  onToggle,
  onOpen,
}: {
  finding: FindingDto;
  index: number;
  isFocusable: boolean;
  isSelected: boolean;
  onFocusRow: (index: number) => void;
  onToggle: (id: number) => void;
  onOpen: (index: number) => void;
}) {
  const more = finding.reasons.length - 1;
  return (
    <tr
      data-testid="finding-row"
      data-id={finding.id}
      data-decision={finding.decision}
      data-row-index={index}
      aria-selected={isSelected}
      data-current={isFocusable || undefined}
      tabIndex={isFocusable ? 0 : -1}
      className="finding-row"
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusRow(index);
      }}
      onClick={() => onOpen(index)}
    >
      <td className="finding-row__check">
        <input
          type="checkbox"
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
      <td className="finding-row__url">
        <span className="mono" title={finding.url}>
          {finding.url}
        </span>
        {finding.sitemapFile ? (
          <span className="finding-row__file">{sitemapFileLabel(finding.sitemapFile)}</span>
        ) : null}
      </td>
      <td>
        <span className="reason-tag">
          <span
            className="reason-dot"
            style={{ background: reasonColour(finding.reason) }}
            aria-hidden="true"
          />
          {reasonLabel(finding.reason)}
        </span>
        {more > 0 ? <span className="muted small"> +{more}</span> : null}
      </td>
      <td className="num">{finding.status ?? <span className="muted">—</span>}</td>
      <td className="num">{dateCell(finding)}</td>
      <td>
        <span className={`decision decision--${finding.decision}`}>{decisionLabel(finding.decision)}</span>
      </td>
    </tr>
  );
});

export function FindingsTable({
  items,
  list,
  emptyMessage,
  sort,
  focusIndex,
  focusRequest,
  isSelected,
  pageState,
  onFocusRow,
  onToggle,
  onTogglePage,
  onOpen,
  tableRef,
}: {
  items: FindingDto[];
  list: FindingList;
  emptyMessage: string;
  sort: FindingSort;
  focusIndex: number;
  /** Changes whenever DOM focus should move to the focused row (keyboard moves, not clicks). */
  focusRequest: number;
  isSelected: (id: number) => boolean;
  pageState: 'none' | 'some' | 'all';
  onFocusRow: (index: number) => void;
  onToggle: (id: number) => void;
  onTogglePage: () => void;
  onOpen: (index: number) => void;
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

  return (
    <div className="table-wrap">
      <table
        onFocus={() => {
          hasFocus.current = true;
        }}
        onBlur={(event) => {
          hasFocus.current = event.currentTarget.contains(event.relatedTarget as Node | null);
        }}
        ref={tableRef}
        className="table findings-table"
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: rows are focusable and selectable (aria-selected), which needs grid semantics
        role="grid"
        aria-multiselectable="true"
        aria-label="Findings"
        aria-describedby="findings-keys-help"
      >
        <thead>
          <tr>
            <th scope="col" className="finding-row__check">
              <input
                ref={headerBox}
                type="checkbox"
                checked={pageState === 'all'}
                aria-label="Select all rows on this page"
                onChange={onTogglePage}
                disabled={items.length === 0}
              />
            </th>
            <th scope="col" aria-sort={ariaSort(sort, 'url')}>
              URL
            </th>
            <th scope="col">Reason</th>
            <th scope="col" className="num">
              HTTP
            </th>
            {list === 'add' ? (
              <th scope="col" className="num">
                Crawled
              </th>
            ) : (
              <th scope="col" className="num" aria-sort={ariaSort(sort, 'lastmod')}>
                Last modified
              </th>
            )}
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {items.map((finding, index) => (
            <Row
              key={finding.id}
              finding={finding}
              index={index}
              isFocusable={index === focusIndex}
              isSelected={isSelected(finding.id)}
              onFocusRow={onFocusRow}
              onToggle={onToggle}
              onOpen={onOpen}
            />
          ))}
        </tbody>
      </table>
      {items.length === 0 ? <p className="muted findings-empty">{emptyMessage}</p> : null}
    </div>
  );
}
