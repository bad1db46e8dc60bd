// Keyset paging for the small paged lists of a run (checked rows, a comparison's changes, inspected URLs):
// the cursors of the pages seen so far, so Previous goes back without the API knowing about it, and the
// Previous / Next buttons over them.
import { type ReactNode, useState } from 'react';
import styles from './cursor-pager.module.css';

export interface CursorStack {
  /** The cursor of the page shown (null: the first page). */
  cursor: string | null;
  /** 1-based number of the page shown. */
  page: number;
  back: () => void;
  forward: (next: string) => void;
}

export function useCursorStack(): CursorStack {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    page: cursors.length,
    back: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    forward: (next) => setCursors((list) => [...list, next]),
  };
}

export function CursorPager({
  stack,
  nextCursor,
  busy = false,
  children,
}: {
  stack: CursorStack;
  /** The page after the one shown, or null on the last. */
  nextCursor: string | null;
  /** Next waits while the page shown is still a placeholder. */
  busy?: boolean;
  /** What the middle says; by default "Page N". */
  children?: ReactNode;
}) {
  return (
    <div className={styles['spot-pager']}>
      <button type="button" className="button button--small" disabled={stack.page === 1} onClick={stack.back}>
        Previous
      </button>
      <span className="small muted">{children ?? `Page ${stack.page}`}</span>
      <button
        type="button"
        className="button button--small"
        disabled={!nextCursor || busy}
        onClick={() => nextCursor && stack.forward(nextCursor)}
      >
        Next
      </button>
    </div>
  );
}
