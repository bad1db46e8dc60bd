'use client';
// The site page's sections as ARIA tabs, as on the audit page (components/ui/url-tabs.tsx). A tab's own
// filters (the change feed's) belong to it: switching tabs starts from the tab alone.
import { type UrlTab, UrlTabs } from '@/components/ui/url-tabs';

export type SiteSection = UrlTab;

export function SiteTabs({ sections }: { sections: readonly SiteSection[] }) {
  return <UrlTabs tabs={sections} label="Site sections" prefix="site" keepQuery={false} />;
}
