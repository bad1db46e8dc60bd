'use client';
// The sitemap file tree (ARIA tree, roving tabindex). Large groups render 100 children at a time and
// collapsed branches render nothing, so thousands of files stay responsive. With `onSelectFile`, choosing
// a file that declares URLs (click, Enter or Space) filters the review to its rows; it shows as selected.
// The files come a page at a time in reading order (parents before children, so what has come is always a
// tree); a button below brings the next page, so any number of files can be reached.
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import {
  buildFileTree,
  filterTree,
  flattenVisible,
  initiallyExpanded,
  nodeKey,
  ROOT_GROUP,
  type TreeNode,
} from '@/lib/audits/file-tree';
import type { useSitemapFiles } from '@/lib/audits/hooks';
import { isActiveStatus, isNotRead } from '@/lib/audits/labels';
import type { SitemapFileDto } from '@/lib/audits/schema';
import { SITEMAP_PAGE_SIZE } from '@/lib/audits/sitemap-pages';
import { treeSummary, unfinishedNote } from '@/lib/audits/tree-summary';
import { formatCount } from '@/lib/core/format';
import styles from './files.module.css';
import { TreeRow } from './tree-row';

const PAGE = 100;

/** A file not read (its audit ended first) is no problem of the sitemap: the card counts it apart. */
function hasProblem(file: SitemapFileDto): boolean {
  if (isNotRead(file)) return false;
  return file.status === 'failed' || file.partial || file.error !== null || file.warnings.length > 0;
}

/** Files that declare URLs themselves (not robots.txt or an index), so the review can be narrowed to them. */
export function declaresUrls(file: SitemapFileDto): boolean {
  return file.entries > 0 && file.kind !== 'index' && file.kind !== 'robots';
}

function collectParents(nodes: readonly TreeNode<SitemapFileDto>[], into = new Set<number>()): Set<number> {
  for (const node of nodes) {
    if (node.children.length === 0) continue;
    into.add(node.file.id);
    collectParents(node.children, into);
  }
  return into;
}

/** `files` is useSitemapFiles' result (the review's file filter reads the same query). */
export function SitemapTree({
  files,
  selectedFileId,
  onSelectFile,
}: {
  files: ReturnType<typeof useSitemapFiles>;
  /** The file the review is filtered to. */
  selectedFileId?: number;
  onSelectFile?: (fileId: number) => void;
}) {
  const items = files.data?.items;
  const audit = files.data?.audit;
  const total = files.data?.total ?? 0;
  const tree = useMemo(() => buildFileTree(items ?? []), [items]);
  const problemCount = useMemo(() => (items ?? []).filter(hasProblem).length, [items]);
  const notReadCount = useMemo(() => (items ?? []).filter(isNotRead).length, [items]);
  const note = audit ? unfinishedNote(audit) : null;

  const [problemsOnly, setProblemsOnly] = useState(false);
  const view = useMemo(() => (problemsOnly ? filterTree(tree, hasProblem) : tree), [tree, problemsOnly]);

  // null: follow the default (top level open) as the tree grows; a Set once the user has toggled something.
  const [expandedChoice, setExpandedChoice] = useState<Set<number> | null>(null);
  // Two levels: typically robots.txt → index → its children, unless a branch is huge.
  const defaults = useMemo(() => initiallyExpanded(tree, 2), [tree]);
  const expanded = expandedChoice ?? defaults;
  const [limits, setLimits] = useState<ReadonlyMap<string, number>>(new Map());

  const rows = useMemo(
    () =>
      flattenVisible(
        view,
        (id) => expanded.has(id),
        (group) => limits.get(group) ?? PAGE,
      ),
    [view, expanded, limits],
  );
  const byId = useMemo(() => {
    const map = new Map<number, TreeNode<SitemapFileDto>>();
    const stack = [...view];
    for (let node = stack.pop(); node; node = stack.pop()) {
      map.set(node.file.id, node);
      stack.push(...node.children);
    }
    return map;
  }, [view]);

  const [activeKey, setActiveKey] = useState<string | null>(null);
  const focusable = rows.some((row) => row.key === activeKey) ? activeKey : (rows[0]?.key ?? null);
  const treeRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  useEffect(() => {
    const key = pendingFocus.current;
    if (!key) return;
    pendingFocus.current = null;
    treeRef.current?.querySelector<HTMLElement>(`[data-tree-key="${key}"]`)?.focus();
  });

  const toggle = useCallback(
    (id: number) =>
      setExpandedChoice((current) => {
        const next = new Set(current ?? defaults);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [defaults],
  );
  const moveTo = (key: string | undefined) => {
    if (!key) return;
    setActiveKey(key);
    pendingFocus.current = key;
  };
  const showMore = (groupKey: string) => {
    const list = groupKey === ROOT_GROUP ? view : (byId.get(Number(groupKey))?.children ?? []);
    const shown = limits.get(groupKey) ?? PAGE;
    setLimits((current) => new Map(current).set(groupKey, shown + PAGE));
    const firstNew = list[shown];
    if (firstNew) moveTo(nodeKey(firstNew.file.id));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = rows.findIndex((row) => row.key === focusable);
    const row = rows[index];
    if (!row) return;
    const isOpen = row.type === 'node' && expanded.has(row.node.file.id);
    const hasChildren = row.type === 'node' && row.node.children.length > 0;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(rows[index + 1]?.key);
        break;
      case 'ArrowUp':
        moveTo(rows[index - 1]?.key);
        break;
      case 'Home':
        moveTo(rows[0]?.key);
        break;
      case 'End':
        moveTo(rows[rows.length - 1]?.key);
        break;
      case 'ArrowRight':
        if (row.type !== 'node' || !hasChildren) return;
        if (isOpen) moveTo(rows[index + 1]?.key);
        else toggle(row.node.file.id);
        break;
      case 'ArrowLeft':
        if (row.type === 'node' && isOpen) toggle(row.node.file.id);
        else if (row.parentKey) moveTo(row.parentKey);
        break;
      case 'Enter':
      case ' ':
        if (row.type === 'more') showMore(row.groupKey);
        else if (hasChildren) toggle(row.node.file.id);
        else if (onSelectFile && declaresUrls(row.node.file)) onSelectFile(row.node.file.id);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const setFilter = (next: boolean) => {
    setProblemsOnly(next);
    // Problems are usually few and deep: open every branch that leads to one.
    if (next) setExpandedChoice(collectParents(filterTree(tree, hasProblem)));
  };

  return (
    <section className="card" aria-labelledby="tree-heading">
      <div className="card__header">
        <div>
          <h2 id="tree-heading">Sitemap files</h2>
          <p className="muted small" data-testid="tree-summary">
            {items && audit
              ? treeSummary(audit, {
                  problems: problemCount,
                  notRead: notReadCount,
                  loaded: items.length,
                  total,
                })
              : 'Loading…'}
          </p>
          {note ? (
            <p className="muted small" data-testid="tree-unfinished">
              {note}
            </p>
          ) : null}
          {onSelectFile && items?.some(declaresUrls) ? (
            <p className="muted small">Choose a file to review only the URLs it declares.</p>
          ) : null}
        </div>
        <div className={styles['tree-toolbar']}>
          <label className={`choice ${styles['tree-toolbar__filter']}`}>
            <input
              type="checkbox"
              checked={problemsOnly}
              disabled={problemCount === 0 && !problemsOnly}
              onChange={(event) => setFilter(event.target.checked)}
              style={{ margin: 0 }}
            />
            <span className="small">Only files with problems</span>
          </label>
          <button
            type="button"
            className="button button--small"
            onClick={() => setExpandedChoice(collectParents(view))}
          >
            Expand all
          </button>
          <button type="button" className="button button--small" onClick={() => setExpandedChoice(new Set())}>
            Collapse all
          </button>
        </div>
      </div>
      <div className="card__body">
        {files.isError ? <Alert title="Could not load the sitemap files">{files.error.message}</Alert> : null}
        {items && items.length === 0 ? (
          <p className="muted">
            {audit && isActiveStatus(audit.status)
              ? 'No sitemap files have been read yet.'
              : 'No sitemap file was read.'}
          </p>
        ) : null}
        {files.isPending ? (
          <div className="stack" aria-hidden="true">
            <div className="skeleton" />
            <div className="skeleton" style={{ width: '70%' }} />
          </div>
        ) : null}
        {rows.length > 0 ? (
          <div className={styles['tree-head']} aria-hidden="true">
            <span>File</span>
            <span>HTTP</span>
            <span>Entries</span>
            <span>Size</span>
            <span>Status</span>
          </div>
        ) : null}
        {rows.length > 0 ? (
          <div
            ref={treeRef}
            role="tree"
            aria-label="Sitemap files"
            className={styles.tree}
            onKeyDown={onKeyDown}
          >
            {rows.map((row) =>
              row.type === 'node' ? (
                <TreeRow
                  key={row.key}
                  rowKey={row.key}
                  file={row.node.file}
                  level={row.level}
                  setSize={row.setSize}
                  posInSet={row.posInSet}
                  childCount={row.node.children.length}
                  descendants={row.node.descendants}
                  isExpanded={expanded.has(row.node.file.id)}
                  isFocusable={row.key === focusable}
                  isSelected={row.node.file.id === selectedFileId}
                  onSelect={onSelectFile && declaresUrls(row.node.file) ? onSelectFile : undefined}
                  onToggle={toggle}
                  onFocusRow={setActiveKey}
                />
              ) : (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the tree handles keys for all rows (roving tabindex)
                <div
                  key={row.key}
                  role="treeitem"
                  aria-level={row.level}
                  aria-selected={false}
                  className={`${styles['tree-item']} ${styles['tree-more']}`}
                  data-tree-key={row.key}
                  tabIndex={row.key === focusable ? 0 : -1}
                  onFocus={() => setActiveKey(row.key)}
                  onClick={() => showMore(row.groupKey)}
                  style={{ paddingLeft: `${(row.level - 1) * 1.5 + 2.4}rem` }}
                >
                  <span className="button button--small">
                    Show {formatCount(Math.min(PAGE, row.hidden))} more ({formatCount(row.hidden)} hidden)
                  </span>
                </div>
              ),
            )}
          </div>
        ) : null}
        {files.hasNextPage ? (
          <p className={styles['tree-more-files']}>
            <button
              type="button"
              className="button button--small"
              data-testid="tree-more-files"
              disabled={files.isFetchingNextPage}
              onClick={() => void files.fetchNextPage()}
            >
              {files.isFetchingNextPage
                ? 'Loading files…'
                : `Load the next ${formatCount(Math.min(SITEMAP_PAGE_SIZE, total - (items?.length ?? 0)))} files`}
            </button>{' '}
            <span className="muted small" data-testid="tree-loaded">
              {formatCount(items?.length ?? 0)} of {formatCount(total)} files loaded
            </span>
          </p>
        ) : null}
      </div>
    </section>
  );
}
