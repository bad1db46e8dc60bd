'use client';
// Keyboard review: j/k move the focused row, a approves, r rejects, x toggles selection, Enter opens the
// side panel, Escape closes it. They work when focus is in the findings region (or nowhere in particular);
// keys typed into text fields, menus or dialogs are left alone.
import { type RefObject, useEffect, useRef } from 'react';

export interface ReviewKeyHandlers {
  /** `isFromRow`: focus was on a row (or inside one), so the move steps from it. */
  move: (step: 1 | -1, isFromRow: boolean) => void;
  decide: (decision: 'approved' | 'rejected') => void;
  toggle: () => void;
  open: () => void;
  close: () => void;
}

const TYPING_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);

/** True when a key press belongs to the element that has focus (typing, a menu, a modal, the tree). */
export function isOwnedByFocus(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !TYPING_INPUTS.has(target.type);
  return target.closest('dialog[open], [role="tree"], [role="menu"], [role="listbox"]') !== null;
}

export function useReviewKeys(
  region: RefObject<HTMLElement | null>,
  isEnabled: boolean,
  handlers: ReviewKeyHandlers,
) {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!isEnabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isOwnedByFocus(event.target)) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const isInRegion = target === document.body || (target !== null && region.current?.contains(target));
      if (!isInRegion) return;
      const on = latest.current;
      const isOnRow = target?.matches('[data-testid="finding-row"]') ?? false;
      const isInRow = target?.closest('[data-testid="finding-row"], [data-testid="finding-panel"]') != null;
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          if (event.key === 'ArrowDown' && !isOnRow) return;
          on.move(1, isInRow);
          break;
        case 'k':
        case 'ArrowUp':
          if (event.key === 'ArrowUp' && !isOnRow) return;
          on.move(-1, isInRow);
          break;
        case 'a':
          on.decide('approved');
          break;
        case 'r':
          on.decide('rejected');
          break;
        case 'x':
          on.toggle();
          break;
        case ' ':
          if (!isOnRow) return;
          on.toggle();
          break;
        case 'Enter':
          // Enter on a button or link activates it; only on a row does it open the panel.
          if (!isOnRow) return;
          on.open();
          break;
        case 'Escape':
          on.close();
          return;
        default:
          return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isEnabled, region]);
}
