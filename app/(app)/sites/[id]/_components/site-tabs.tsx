'use client';
// The site page's sections as ARIA tabs, as on the audit page (automatic activation: arrow keys, Home and
// End move and select; Tab goes on into the panel). The chosen tab is `?tab=` in the URL (the first tab is
// left out), so reload, back/forward and a shared link keep it; only the selected panel is rendered.
import { usePathname, useSearchParams } from 'next/navigation';
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { chosenSection, sectionSearch } from '@/lib/audits/section-url';

const PANEL_ID = 'site-panel';
const tabId = (id: string) => `site-tab-${id}`;

export interface SiteSection {
  id: string;
  label: string;
  render: () => ReactNode;
}

export function SiteTabs({ sections }: { sections: readonly SiteSection[] }) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const ids = sections.map((section) => section.id);
  const selected = chosenSection(ids, searchParams.get('tab'));
  const select = (id: string) => {
    // A tab's own filters (the change feed's) belong to it: switching tabs starts from the tab alone.
    const query = sectionSearch('', id, ids[0]);
    window.history.pushState(null, '', query ? `${pathname}?${query}` : pathname);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = sections.findIndex((section) => section.id === selected);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    let next: SiteSection | undefined;
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
        role="tablist"
        aria-label="Site sections"
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
              data-testid={`site-tab-${section.id}`}
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
        data-testid="site-panel"
        data-section={current.id}
      >
        {current.render()}
      </div>
    </div>
  );
}
