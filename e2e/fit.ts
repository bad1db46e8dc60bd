// Whether a page fits its width: shared by the page-by-page sweep (page-sweep.ts) and the specs whose own
// data makes the states worth checking (long URLs, nested trees, failed files).
import type { Page } from '@playwright/test';

/** Nothing when the page fits its width; else the page's width and the innermost elements that stick out
 * past the right edge (tag, classes, right edge), so the culprit is named in the failure. */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const inner = window.innerWidth;
    if (document.documentElement.scrollWidth <= inner) return [];
    // Inside a box that scrolls or clips sideways, an element widens that box, not the page.
    const isClipped = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    // Its box, or the text running out of it (a long unbroken word overflows a box that stays narrow).
    const rightEdge = (el: Element) => {
      const box = el.getBoundingClientRect();
      return getComputedStyle(el).overflowX === 'visible'
        ? Math.max(box.right, box.left + el.scrollWidth)
        : box.right;
    };
    const sticksOut = (el: Element) => rightEdge(el) > inner + 0.5 && !isClipped(el);
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => sticksOut(el) && ![...el.children].some(sticksOut))
      .slice(0, 6)
      .map((el) => {
        const classes = [...el.classList].map((c) => `.${c}`).join('');
        return `${el.tagName.toLowerCase()}${classes} (right edge ${Math.round(rightEdge(el))} px)`;
      });
    return [`page ${document.documentElement.scrollWidth} px wide at ${inner} px`, ...culprits];
  });
}

/** Each width at which the page scrolls sideways, with its culprits (empty when it fits at all of them). */
export async function overflowAt(page: Page, widths: readonly number[]): Promise<string[]> {
  const problems: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    // One frame for layout to follow the new width.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    const overflow = await sidewaysOverflow(page);
    if (overflow.length > 0) problems.push(`${width} px: ${overflow.join('; ')}`);
  }
  return problems;
}
