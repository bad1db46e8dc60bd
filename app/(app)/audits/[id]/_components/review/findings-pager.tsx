// Keyset paging: Previous / Next through a stack of cursors. After a reload or a shared link the pages
// before are unknown, so Previous returns to the first page and no page number is shown.
import { countText, formatCount } from '@/lib/core/format';
import styles from './review.module.css';

export function FindingsPager({
  pageNumber,
  shown,
  pageSize,
  hasPrevious,
  hasNext,
  onFirst,
  onPrevious,
  onNext,
}: {
  /** 1-based, or null when the pages before are unknown. */
  pageNumber: number | null;
  shown: number;
  pageSize: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onFirst: () => void;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const first = pageNumber === null ? null : (pageNumber - 1) * pageSize + 1;
  return (
    <nav className={styles.pager} aria-label="Findings pages">
      <span className="muted small" data-testid="findings-page">
        {shown === 0
          ? 'No rows on this page'
          : first === null
            ? countText(shown, 'row')
            : `Rows ${formatCount(first)}–${formatCount(first + shown - 1)}`}
        {pageNumber !== null ? ` · page ${formatCount(pageNumber)}` : ''}
      </span>
      <div className={styles.pager__buttons}>
        {pageNumber === null || pageNumber > 2 ? (
          <button type="button" className="button button--small" onClick={onFirst} disabled={!hasPrevious}>
            First page
          </button>
        ) : null}
        <button type="button" className="button button--small" onClick={onPrevious} disabled={!hasPrevious}>
          Previous page
        </button>
        <button type="button" className="button button--small" onClick={onNext} disabled={!hasNext}>
          Next page
        </button>
      </div>
    </nav>
  );
}
