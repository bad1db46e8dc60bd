'use client';
// The Prune / Add / Held tabs (ARIA tabs, automatic activation with the arrow keys). The count is a
// description, so each tab's name stays exactly its list name.
import { type KeyboardEvent, useRef } from 'react';
import tabStyles from '@/components/ui/tabs.module.css';
import { formatCount } from '@/lib/core/format';
import { listLabel } from '@/lib/findings/format';
import { type FindingList, LISTS } from '@/lib/findings/schema';

export const TAB_PANEL_ID = 'findings-tabpanel';
export const tabId = (list: FindingList) => `findings-tab-${list}`;

export function FindingsTabs({
  active,
  totals,
  onChange,
}: {
  active: FindingList;
  totals: Record<FindingList, number>;
  onChange: (list: FindingList) => void;
}) {
  const refs = useRef(new Map<FindingList, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = LISTS.indexOf(active);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    let next: FindingList | undefined;
    if (step !== undefined) next = LISTS[(index + step + LISTS.length) % LISTS.length];
    else if (event.key === 'Home') next = LISTS[0];
    else if (event.key === 'End') next = LISTS[LISTS.length - 1];
    if (!next) return;
    event.preventDefault();
    onChange(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div role="tablist" aria-label="Findings lists" className={tabStyles.tabs} onKeyDown={onKeyDown}>
      {LISTS.map((list) => {
        const isActive = list === active;
        return (
          <button
            key={list}
            ref={(element) => {
              if (element) refs.current.set(list, element);
              else refs.current.delete(list);
            }}
            type="button"
            role="tab"
            id={tabId(list)}
            aria-selected={isActive}
            aria-controls={TAB_PANEL_ID}
            aria-labelledby={`${tabId(list)}-label`}
            aria-describedby={`${tabId(list)}-count`}
            tabIndex={isActive ? 0 : -1}
            className={tabStyles.tab}
            onClick={() => onChange(list)}
          >
            <span id={`${tabId(list)}-label`}>{listLabel(list)}</span>
            <span id={`${tabId(list)}-count`} className={tabStyles.tab__count}>
              {formatCount(totals[list])}
              <span className="visually-hidden"> findings</span>
            </span>
          </button>
        );
      })}
    </div>
  );
}
