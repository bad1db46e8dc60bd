'use client';
// The audit page's sections below the summary, as ARIA tabs with the chosen one in `?tab=` beside the
// review's own query state (components/ui/url-tabs.tsx; lib/audits/section-url.ts has the URL rules). Tabs
// rather than an in-page menu: the strip wraps onto a second line on a phone, every section stays one
// press away, and the page stays a screen or two long.
import { type UrlTab, UrlTabs } from '@/components/ui/url-tabs';

export const SECTIONS_ID = 'audit-sections';

export type AuditSection = UrlTab;

export function AuditSections({ sections }: { sections: readonly AuditSection[] }) {
  return <UrlTabs tabs={sections} label="Audit sections" prefix="audit" keepQuery tablistId={SECTIONS_ID} />;
}
