'use client';
// The header's navigation. Wide screens show it inline; narrow ones (app-shell.module.css)
// fold it behind a "Menu" button, a disclosure: aria-expanded says whether it is open, Escape closes it
// and gives the focus back to the button, and it closes when a link changes the page. The links stay
// server-rendered (children), so the role checks remain in the layout.
import { usePathname } from 'next/navigation';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import shell from './app-shell.module.css';

export function SiteNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  // A followed link closes the menu (state adjusted during render, not in an effect).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className={shell.navWrap}>
      <button
        ref={button}
        type="button"
        className={`button button--small ${shell.toggle}`}
        aria-expanded={open}
        aria-controls="site-nav"
        onClick={() => setOpen((was) => !was)}
      >
        <span aria-hidden="true" className={shell.icon} />
        Menu
      </button>
      <nav id="site-nav" aria-label="Main" className={shell.nav} data-open={open ? 'true' : undefined}>
        {children}
      </nav>
    </div>
  );
}
