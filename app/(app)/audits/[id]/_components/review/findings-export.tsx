'use client';
// Export links for one list. Plain anchors: the server streams the file as an attachment, so the browser
// downloads it without holding it in memory. An export with no rows would be a header alone, so where the
// audit's counts say there are none, the link is replaced by a sentence saying so.
import { useId, useRef, useState } from 'react';
import { formatCount } from '@/lib/core/format';
import {
  decisionLabel,
  type ExportDecision,
  type ExportFormat,
  exportHref,
  listLabel,
} from '@/lib/findings/format';
import { DECISIONS, type FindingList, type FindingsOverview } from '@/lib/findings/schema';
import styles from './review.module.css';

interface ExportChoice {
  decision: ExportDecision;
  format: ExportFormat;
  bom?: boolean;
}

const MORE: ExportChoice[] = [
  { decision: 'approved', format: 'csv', bom: true },
  ...DECISIONS.filter((d) => d !== 'approved').map((decision): ExportChoice => ({ decision, format: 'csv' })),
  { decision: 'all', format: 'csv' },
  { decision: 'approved', format: 'jsonl' },
  ...DECISIONS.filter((d) => d !== 'approved').map(
    (decision): ExportChoice => ({ decision, format: 'jsonl' }),
  ),
  { decision: 'all', format: 'jsonl' },
];

function linkText({ decision, format, bom }: ExportChoice): string {
  const rows = decision === 'all' ? 'All rows' : `${decisionLabel(decision)} rows`;
  return `${rows}, ${format === 'csv' ? (bom ? 'CSV for Excel' : 'CSV') : 'JSON Lines'}`;
}

export function FindingsExport({
  auditId,
  list,
  findings,
}: {
  auditId: string;
  list: FindingList;
  findings: FindingsOverview;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const noteId = useId();
  const [isExplained, setExplained] = useState(false);
  const decisions = findings.decisions[list];
  const rowsOf = (decision: ExportDecision) =>
    decision === 'all' ? findings[list].total : (decisions?.[decision] ?? 0);
  const approved = rowsOf('approved');
  const close = (refocus: boolean) => {
    if (!menu.current?.open) return;
    menu.current.open = false;
    if (refocus) menu.current.querySelector('summary')?.focus();
  };
  return (
    <div className={styles['export-area']}>
      <div className={styles['export-links']}>
        {approved > 0 ? (
          <a
            className="button button--small button--primary"
            href={exportHref(auditId, list, 'approved')}
            download
          >
            Export approved CSV
          </a>
        ) : (
          <button
            type="button"
            className="button button--small button--primary"
            aria-expanded={isExplained}
            aria-controls={noteId}
            data-testid="export-none"
            onClick={() => setExplained(!isExplained)}
          >
            Export approved CSV
          </button>
        )}
        <details
          ref={menu}
          className={styles.menu}
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || !menu.current?.open) return;
            event.preventDefault();
            close(true);
          }}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close(false);
          }}
        >
          <summary className="button button--small">Other exports</summary>
          <ul className={styles.menu__list}>
            {MORE.map((choice) => {
              const count = rowsOf(choice.decision);
              const key = `${choice.decision}-${choice.format}-${choice.bom ? 'bom' : ''}`;
              return (
                <li key={key}>
                  {count > 0 ? (
                    <a href={exportHref(auditId, list, choice.decision, choice.format, choice)} download>
                      {linkText(choice)} <span className="muted small">({formatCount(count)})</span>
                    </a>
                  ) : (
                    <span className={styles.menu__none}>
                      {linkText(choice)} <span className="small">(no rows)</span>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </details>
      </div>
      <p
        id={noteId}
        className={`small ${styles['export-note']}`}
        role="status"
        hidden={!isExplained || approved > 0}
      >
        {isExplained && approved === 0
          ? `No approved rows in the ${listLabel(list)} list yet: the export holds approved rows only, so it would be a header alone. Approve rows first, or pick another export.`
          : ''}
      </p>
    </div>
  );
}
