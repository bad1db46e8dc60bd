// Links built from findings: safeHref, the one gate for an href made of stored data (a finding's URL, a
// target, a crawl or sitemap URL), and the findings endpoints that take a filter as query-string params
// (the browser's hooks build their requests with these, so the names of the params are written once).
import { isClipped } from '@/lib/core/display';
import type { Decision, TFindingFilter } from './schema';

/**
 * An href for a URL read from an audit, or null when it must be shown as text only: anything but an
 * absolute http(s) URL (`javascript:`, `data:`, `vbscript:`, `file:`, relative or unparsable text, after
 * the browser's own clean-up of tabs, newlines and case), and a URL cut by the display bound (it would
 * lead somewhere else). The href returned is the parsed, serialised URL: what the browser would follow.
 */
export function safeHref(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url === '' || isClipped(url)) return null;
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

/** A filter as query-string params (`list` first, absent filters left out). */
export function filterParams(filter: TFindingFilter): URLSearchParams {
  const params = new URLSearchParams({ list: filter.list });
  const { list: _list, ...rest } = filter;
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) params.set(name, String(value));
  return params;
}

/** `GET /findings/reasons` for a view: every filter but the reason. */
export function reasonCountsHref(auditId: string, filter: TFindingFilter): string {
  const { reason: _reason, ...rest } = filter;
  return `/api/v1/audits/${encodeURIComponent(auditId)}/findings/reasons?${filterParams(rest)}`;
}

/** `GET /decisions/preview` of a filter decision (the filter's decision travels as filterDecision). */
export function decisionPreviewHref(
  auditId: string,
  decision: Decision,
  filter: TFindingFilter,
  override = false,
): string {
  const { decision: filterDecision, ...rest } = filter;
  const params = filterParams(rest);
  params.set('decision', decision);
  if (filterDecision) params.set('filterDecision', filterDecision);
  if (override) params.set('override', '1');
  return `/api/v1/audits/${encodeURIComponent(auditId)}/decisions/preview?${params}`;
}
