'use client';
// The first Tab stops of every app page: "Skip to content", and on an audit's page "Skip to review",
// which puts the focus on the review's current row (the one the j/k/a/r keys act on) — two Tab presses
// and Enter instead of walking through the header, summary and filters. When the review is not on
// screen (another section of the audit is shown) it opens the review first (?tab=review). Before the page
// has hydrated it is a plain link to #findings (the browser moves its Tab starting point there);
// data-ready says the script has taken over.
import { usePathname, useRouter } from 'next/navigation';
import { type MouseEvent, useEffect, useState } from 'react';
import styles from './skip-links.module.css';

const AUDIT_PAGE = /^\/audits\/[0-9a-f-]{36}$/;

/** The review's current row, else the review itself (made focusable for the moment). */
function reviewTarget(): HTMLElement | null {
  const review = document.getElementById('findings');
  if (!review) return null;
  const row = review.querySelector<HTMLElement>('[data-testid="finding-row"][tabindex="0"]');
  if (row) return row;
  review.tabIndex = -1;
  return review;
}

export function SkipLinks() {
  const pathname = usePathname();
  const router = useRouter();
  const [isReady, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const skipToReview = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!reviewTarget()) {
      // The review's tab, the page's other parameters (the review's filters) kept.
      const params = new URLSearchParams(window.location.search);
      params.set('tab', 'review');
      router.push(`${pathname}?${params}`, { scroll: false });
    }
    // Focus the review once it is drawn (up to 5 s), and again if the row is drawn anew meanwhile (the
    // page finishing its first render replaces it, and the focus falls to the body).
    const until = Date.now() + 5000;
    let focused: HTMLElement | null = null;
    const attempt = () => {
      const isLost = focused === null || !focused.isConnected || document.activeElement === document.body;
      if (isLost) {
        focused = reviewTarget();
        focused?.focus();
      }
      if (Date.now() < until) window.setTimeout(attempt, 100);
    };
    attempt();
  };

  return (
    <div data-ready={isReady || undefined}>
      <a className={styles.link} href="#main">
        Skip to content
      </a>
      {AUDIT_PAGE.test(pathname) ? (
        // biome-ignore lint/a11y/useValidAnchor: an in-page link (#findings) that also puts the focus on the current row
        <a className={styles.link} href="#findings" onClick={skipToReview}>
          Skip to review
        </a>
      ) : null}
    </div>
  );
}
