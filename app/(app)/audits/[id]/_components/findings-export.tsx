'use client';
// Export links for one list. Plain anchors: the server streams the file as an attachment, so the browser
// downloads it without holding it in memory.
import { useRef } from 'react';
import { decisionLabel, type ExportDecision, type ExportFormat, exportHref } from '@/lib/findings/format';
import { DECISIONS, type FindingList } from '@/lib/findings/schema';

const MORE: [ExportDecision, ExportFormat][] = [
  ...DECISIONS.filter((decision) => decision !== 'approved').map((d): [ExportDecision, ExportFormat] => [
    d,
    'csv',
  ]),
  ['all', 'csv'],
  ['approved', 'jsonl'],
  ...DECISIONS.filter((decision) => decision !== 'approved').map((d): [ExportDecision, ExportFormat] => [
    d,
    'jsonl',
  ]),
  ['all', 'jsonl'],
];

function linkText(decision: ExportDecision, format: ExportFormat): string {
  const rows = decision === 'all' ? 'All rows' : `${decisionLabel(decision)} rows`;
  return `${rows}, ${format === 'csv' ? 'CSV' : 'JSON Lines'}`;
}

export function FindingsExport({ auditId, list }: { auditId: string; list: FindingList }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = (refocus: boolean) => {
    if (!menu.current?.open) return;
    menu.current.open = false;
    if (refocus) menu.current.querySelector('summary')?.focus();
  };
  return (
    <div className="export-links">
      <a
        className="button button--small button--primary"
        href={exportHref(auditId, list, 'approved')}
        download
      >
        Export approved CSV
      </a>
      <details
        ref={menu}
        className="menu"
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
        <ul className="menu__list">
          {MORE.map(([decision, format]) => (
            <li key={`${decision}-${format}`}>
              <a href={exportHref(auditId, list, decision, format)} download>
                {linkText(decision, format)}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
