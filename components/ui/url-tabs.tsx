'use client';
// A page's sections as ARIA tabs whose choice lives in the URL (`?tab=`, the first tab left out), so reload,
// back/forward and a shared link keep it. Automatic activation: arrow keys, Home and End move and select;
// Tab goes on into the panel. Only the selected panel is rendered, so only its data is fetched. One panel
// element serves every tab, so every tab's aria-controls resolves. Used by the audit and site pages. The
// strip is one row; on a narrow screen it scrolls sideways inside itself (CSS), and the selected tab is
// scrolled into its view.
import { usePathname, useSearchParams } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useRef } from 'react';
import { chosenSection, sectionSearch } from '@/lib/audits/section-url';
import styles from './tabs.module.css';

/** One tab: adding a section to a page is one more of these in its list. */
export interface UrlTab {
  /** Its value in `?tab=`. */
  id: string;
  label: string;
  render: () => ReactNode;
}

/** The selected tab's id (`?tab=`, else the first tab) and a way to select another, through the browser
 * history (back and forward step through the tabs; Next.js keeps useSearchParams in step). `keepQuery`:
 * the rest of the query (the review's filters) stays; otherwise a tab's own parameters go with it. */
function useSelectedTab(
  tabs: readonly Pick<UrlTab, 'id'>[],
  keepQuery: boolean,
): [string | undefined, (id: string) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const ids = tabs.map((tab) => tab.id);
  const selected = chosenSection(ids, searchParams.get('tab'));
  const first = ids[0];
  const select = useCallback(
    (id: string) => {
      // From the location, not the render: a review change may have moved on since.
      const query = sectionSearch(keepQuery ? window.location.search : '', id, first);
      window.history.pushState(null, '', query ? `${pathname}?${query}` : pathname);
    },
    [pathname, first, keepQuery],
  );
  return [selected, select];
}

/** Scrolls the strip (only the strip: scrollIntoView would scroll the page down to a strip below the fold)
 * so that `tab` is inside it, with a little of its neighbour showing, which says there is more. */
function revealInStrip(strip: HTMLElement, tab: HTMLElement) {
  const box = strip.getBoundingClientRect();
  const own = tab.getBoundingClientRect();
  const margin = 24;
  if (own.left < box.left) strip.scrollLeft -= box.left - own.left + margin;
  else if (own.right > box.right) strip.scrollLeft += own.right - box.right + margin;
}

export function UrlTabs({
  tabs,
  label,
  prefix,
  keepQuery,
  tablistId,
}: {
  tabs: readonly UrlTab[];
  /** The tab list's accessible name ("Audit sections"). */
  label: string;
  /** Of the ids and test ids: `<prefix>-tab-<id>`, `<prefix>-panel`. */
  prefix: string;
  keepQuery: boolean;
  tablistId?: string;
}) {
  const [selected, select] = useSelectedTab(tabs, keepQuery);
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const strip = useRef<HTMLDivElement>(null);
  // On load (a shared link to the last tab), on every change (back and forward too) and when the strip
  // changes width (a phone turned, a window narrowed).
  useEffect(() => {
    const element = strip.current;
    const tab = selected === undefined ? undefined : refs.current.get(selected);
    if (!element || !tab) return;
    const observer = new ResizeObserver(() => revealInStrip(element, tab));
    observer.observe(element);
    return () => observer.disconnect();
  }, [selected]);
  const tabId = (id: string) => `${prefix}-tab-${id}`;
  const panelId = `${prefix}-panel`;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    let next: UrlTab | undefined;
    if (step !== undefined) next = tabs[(index + step + tabs.length) % tabs.length];
    else if (event.key === 'Home') next = tabs[0];
    else if (event.key === 'End') next = tabs[tabs.length - 1];
    if (!next) return;
    event.preventDefault();
    select(next.id);
    refs.current.get(next.id)?.focus();
  };
  const current = tabs.find((tab) => tab.id === selected);
  if (!current) return null;
  return (
    <div className="audit-sections">
      <div
        ref={strip}
        id={tablistId}
        role="tablist"
        aria-label={label}
        className={`${styles.tabs} ${styles['audit-sections__tabs']}`}
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) refs.current.set(tab.id, element);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={isSelected}
              aria-controls={panelId}
              tabIndex={isSelected ? 0 : -1}
              className={styles.tab}
              data-testid={tabId(tab.id)}
              onClick={() => select(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(current.id)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern: Tab from the strip lands in the panel even when it opens with text
        tabIndex={0}
        className={`stack ${styles['audit-sections__panel']}`}
        data-testid={panelId}
        data-section={current.id}
      >
        {current.render()}
      </div>
    </div>
  );
}
