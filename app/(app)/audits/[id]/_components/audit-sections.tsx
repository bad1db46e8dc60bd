'use client';
// The audit page's sections below the summary, as ARIA tabs (automatic activation: arrow keys, Home and
// End move and select; Tab goes on into the panel). The chosen tab is `?tab=` in the URL beside the
// review's own query state, so reload, back/forward and a shared link keep it; only the selected panel is
// rendered, so only its data is fetched (lib/audits/section-url.ts has the URL rules). Tabs rather than an in-page menu: the strip wraps onto a second
// line on a phone, every section stays one press away, and the page stays a screen or two long.
import { usePathname, useSearchParams } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, useCallback, useRef } from 'react';
import { chosenSection, sectionSearch } from '@/lib/audits/section-url';

export const SECTIONS_ID = 'audit-sections';
const tabId = (id: string) => `audit-tab-${id}`;
// One panel for every tab (only the selected one is rendered), so every tab's aria-controls resolves.
const PANEL_ID = 'audit-panel';

/** One tab: adding a section to the page is one more of these in AuditView's list. */
export interface AuditSection {
  /** Its value in `?tab=`. */
  id: string;
  label: string;
  render: () => ReactNode;
}

/** The selected section's id (`?tab=`, else the first section) and a way to select another, through the
 * browser history (back and forward step through the tabs; Next.js keeps useSearchParams in step). */
export function useSelectedSection(
  sections: readonly Pick<AuditSection, 'id'>[],
): [string | undefined, (id: string) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const ids = sections.map((section) => section.id);
  const selected = chosenSection(ids, searchParams.get('tab'));
  const first = ids[0];
  const select = useCallback(
    (id: string) => {
      // From the location, not the render: a review change may have moved on since.
      const query = sectionSearch(window.location.search, id, first);
      window.history.pushState(null, '', query ? `${pathname}?${query}` : pathname);
    },
    [pathname, first],
  );
  return [selected, select];
}

export function AuditSections({ sections }: { sections: readonly AuditSection[] }) {
  const [selected, select] = useSelectedSection(sections);
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = sections.findIndex((section) => section.id === selected);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    let next: AuditSection | undefined;
    if (step !== undefined) next = sections[(index + step + sections.length) % sections.length];
    else if (event.key === 'Home') next = sections[0];
    else if (event.key === 'End') next = sections[sections.length - 1];
    if (!next) return;
    event.preventDefault();
    select(next.id);
    refs.current.get(next.id)?.focus();
  };
  const current = sections.find((section) => section.id === selected);
  if (!current) return null;
  return (
    <div className="audit-sections">
      <div
        id={SECTIONS_ID}
        role="tablist"
        aria-label="Audit sections"
        className="tabs audit-sections__tabs"
        onKeyDown={onKeyDown}
      >
        {sections.map((section) => {
          const isSelected = section.id === current.id;
          return (
            <button
              key={section.id}
              ref={(element) => {
                if (element) refs.current.set(section.id, element);
                else refs.current.delete(section.id);
              }}
              type="button"
              role="tab"
              id={tabId(section.id)}
              aria-selected={isSelected}
              aria-controls={PANEL_ID}
              tabIndex={isSelected ? 0 : -1}
              className="tab"
              data-testid={`audit-tab-${section.id}`}
              onClick={() => select(section.id)}
            >
              {section.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={PANEL_ID}
        aria-labelledby={tabId(current.id)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern: Tab from the strip lands in the panel even when it opens with text
        tabIndex={0}
        className="audit-sections__panel stack"
        data-testid="audit-panel"
        data-section={current.id}
      >
        {current.render()}
      </div>
    </div>
  );
}
