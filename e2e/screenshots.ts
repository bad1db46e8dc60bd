// Screenshots for people to look at (test-results/screenshots/<name>.png), saved only when
// E2E_SCREENSHOTS=1 (README, Quick start). They assert nothing and cost seconds on a slow machine, so a
// plain run skips them; what a layout must be (no sideways scroll, no serious axe violation) is asserted at
// every width either way. A screenshot of an element waited for the element to show: without it the
// element is still expected visible, so a spec checks the same with or without them.
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const screenshotsDir = path.resolve(import.meta.dirname, '..', 'test-results', 'screenshots');
export const takeScreenshots = process.env.E2E_SCREENSHOTS === '1';

/** Saves `target` (a page, or one element of it) as `<name>.png` when screenshots are asked for. */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (takeScreenshots) {
    await target.screenshot({ path: path.join(screenshotsDir, `${name}.png`), ...options });
  } else if (!('goto' in target)) {
    await expect(target).toBeVisible();
  }
}
