// The audit page's sections are tabs (audit-sections.tsx): a spec selects one before it uses what is in it.
import { expect, type Page } from '@playwright/test';

export type AuditTab =
  | 'Review'
  | 'Spot-checks'
  | 'Search Console'
  | 'Sitemap files'
  | 'Hygiene'
  | 'Crawl import'
  | 'Crawl'
  | 'Sharing';

/** Selects the tab and waits until it is the selected one. */
export async function openAuditTab(page: Page, name: AuditTab): Promise<void> {
  const tab = page.getByRole('tablist', { name: 'Audit sections' }).getByRole('tab', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}
