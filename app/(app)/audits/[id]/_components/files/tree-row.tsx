// One sitemap file in the tree: kind, name, status, HTTP status, entries, sizes, errors and warnings, and
// whether a 304 Not Modified let it reuse the site's previous copy.

import { type CSSProperties, memo } from 'react';
import { Badge } from '@/components/ui/badge';
import { BreakableUrl } from '@/components/ui/breakable-url';
import { fileKindLabel, fileLabel, isNotRead } from '@/lib/audits/labels';
import type { SitemapFileDto } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import { issueTitle } from '@/lib/findings/issue-titles';
import { StatusBadge } from '../../../_components/status-badge';
import styles from './files.module.css';
import { position, sizeText } from './tree-words';

/** An error's or warning's title before its message (readers get words; the code is in data-code). */
function IssueTitle({ code }: { code: string }) {
  const title = issueTitle(code);
  return title ? <strong className="tree-row__issue-title">{title}: </strong> : null;
}

export interface TreeRowProps {
  file: SitemapFileDto;
  rowKey: string;
  level: number;
  setSize: number;
  posInSet: number;
  childCount: number;
  descendants: number;
  isExpanded: boolean;
  isFocusable: boolean;
  /** The review is filtered to this file. */
  isSelected: boolean;
  /** Given when choosing the file filters the review (files that declare URLs). */
  onSelect?: (id: number) => void;
  onToggle: (id: number) => void;
  onFocusRow: (key: string) => void;
}

export const TreeRow = memo(function TreeRow({
  file,
  rowKey,
  level,
  setSize,
  posInSet,
  childCount,
  descendants,
  isExpanded,
  isFocusable,
  isSelected,
  onSelect,
  onToggle,
  onFocusRow,
}: TreeRowProps) {
  const labelId = `tree-label-${file.id}`;
  const label = fileLabel(file);
  const size = sizeText(file);
  const hasChildren = childCount > 0;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree handles keys for all rows (roving tabindex)
    <div
      role="treeitem"
      className={styles['tree-item']}
      data-tree-key={rowKey}
      data-testid="sitemap-file"
      data-status={file.status}
      aria-level={level}
      aria-setsize={setSize}
      aria-posinset={posInSet}
      aria-expanded={hasChildren ? isExpanded : undefined}
      aria-labelledby={labelId}
      aria-selected={isSelected}
      data-selectable={onSelect ? true : undefined}
      tabIndex={isFocusable ? 0 : -1}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusRow(rowKey);
      }}
      onClick={() => {
        onFocusRow(rowKey);
        if (hasChildren) onToggle(file.id);
        else onSelect?.(file.id);
      }}
    >
      {/* The indent is the level: wide on a desktop, half as wide in the stacked list of a phone. */}
      <div className={styles['tree-row']} style={{ '--tree-level': level - 1 } as CSSProperties}>
        <span
          className={styles['tree-toggle']}
          aria-hidden="true"
          data-expanded={hasChildren ? isExpanded : undefined}
        >
          {hasChildren ? (
            <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
              <path d="M4 2l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.6" />
            </svg>
          ) : null}
        </span>
        <div className={styles['tree-row__main']}>
          <div className={styles['tree-row__title']}>
            <span className={styles['kind-tag']}>{fileKindLabel(file)}</span>
            <span id={labelId} className={styles['tree-row__label']}>
              <BreakableUrl url={label} />
            </span>
            {isSelected ? (
              <Badge tone="info" dot={false} testId="sitemap-file-reviewing">
                Reviewing
              </Badge>
            ) : null}
            {hasChildren ? (
              <span className={styles['tree-row__below']}>
                {formatCount(descendants)} {descendants === 1 ? 'file' : 'files'}
              </span>
            ) : null}
          </div>
          {file.error && isNotRead(file) ? (
            <p className={styles['tree-row__note']} data-testid="sitemap-file-not-read">
              {file.error.message}
            </p>
          ) : file.error ? (
            <p
              className={styles['tree-row__error']}
              data-testid="sitemap-file-error"
              data-code={file.error.code}
            >
              <IssueTitle code={file.error.code} />
              {file.error.message}
              {position(file.error)}
            </p>
          ) : null}
          {file.warnings.map((warning, index) => (
            <p
              // biome-ignore lint/suspicious/noArrayIndexKey: a file's warnings are a fixed list that never reorders
              key={`${warning.code}-${index}`}
              className={styles['tree-row__warning']}
              data-code={warning.code}
            >
              <IssueTitle code={warning.code} />
              {warning.message}
            </p>
          ))}
        </div>
        {/* data-label names each cell in the stacked list of a phone, where the column heads are hidden. */}
        <span className={styles['tree-cell']} data-testid="tree-cell" data-label="HTTP">
          {file.httpStatus !== null ? (
            <>
              <span className="visually-hidden">HTTP </span>
              {file.httpStatus}
            </>
          ) : (
            // An upload was never fetched: no HTTP status to show (its name stands where a URL would).
            <span className="muted" title={file.url ? undefined : 'Uploaded: not fetched over HTTP'}>
              —
              <span className="visually-hidden">
                {file.url ? ' no HTTP status' : ' uploaded, not fetched'}
              </span>
            </span>
          )}
        </span>
        <span className={styles['tree-cell']} data-testid="tree-cell" data-label="Entries">
          {formatCount(file.entries)}
          <span className="visually-hidden"> {file.entries === 1 ? 'entry' : 'entries'}</span>
        </span>
        <span className={styles['tree-cell']} data-testid="tree-cell" data-label="Size" title={size?.title}>
          {size ? size.text : <span className="muted">—</span>}
        </span>
        <span className={`${styles['tree-cell']} ${styles['tree-cell--status']}`} data-testid="tree-cell">
          {file.reusedFrom !== null ? (
            <Badge tone="info" dot={false} testId="sitemap-file-reused">
              <span title="Not modified since the site's previous audit: its stored entries were reused">
                Reused (304)
              </span>
            </Badge>
          ) : null}
          {file.partial ? (
            <Badge tone="warning" dot={false} testId="sitemap-file-partial">
              Partial
            </Badge>
          ) : null}
          {isNotRead(file) ? <Badge tone="neutral">Not read</Badge> : <StatusBadge status={file.status} />}
        </span>
      </div>
    </div>
  );
});
