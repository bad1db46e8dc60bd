// Links to the findings endpoints that take a filter as query-string params (the browser's hooks build
// their requests with these, so the names of the params are written once).
import type { Decision, TFindingFilter } from './schema';

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
