// What the audits list says about an audit's findings (or why it has none), its totals and its pages (pure).

import type { AuditListItemDto } from '@/lib/audits/schema';
import { countText, formatCount } from '@/lib/core/format';

const SHORT = 110;

/** Whether the list shows an audit's phase under its status: while it runs, and while it is queued only
 * when the phase says more than waiting (a retry after an outage, say). */
export function isPhaseShown(audit: Pick<AuditListItemDto, 'status' | 'phase'>): boolean {
  if (audit.status === 'running') return true;
  return audit.status === 'queued' && !['starting', 'queued'].includes(audit.phase);
}

/** The first sentence of a failure message, cut to a table cell ("…" when cut). */
export function firstSentence(message: string): string {
  const text = message.trim();
  const end = /[.!?](?=\s|$)/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return sentence.length <= SHORT ? sentence : `${sentence.slice(0, SHORT - 1).trimEnd()}…`;
}

/** Why an audit has no findings, in the Findings column: a failure says what failed. */
export function noFindingsText(audit: Pick<AuditListItemDto, 'status' | 'failure' | 'crawl'>): string {
  if (audit.status === 'failed')
    return audit.failure ? `Failed: ${firstSentence(audit.failure)}` : 'Failed before reconciling';
  if (audit.status === 'cancelled') return 'Cancelled before reconciling';
  if (audit.status === 'queued' || audit.status === 'running') return 'Not reconciled yet';
  if (!audit.crawl.given) return 'No crawl export';
  return 'Not reconciled';
}

/** What a screen reader hears for the "—" in the Reviewed column of an audit without findings. */
export function notReviewedText(audit: Pick<AuditListItemDto, 'status' | 'crawl'>): string {
  if (audit.status === 'failed') return 'Nothing to review: the audit failed';
  if (audit.status === 'cancelled') return 'Nothing to review: the audit was cancelled';
  if (audit.status === 'queued' || audit.status === 'running') return 'Nothing to review yet';
  if (!audit.crawl.given) return 'Nothing to review: no crawl export';
  return 'Nothing to review yet';
}

/** "1 audit", "29 audits"; filtered: "1 audit matches", "29 audits match". */
export function auditsTotalText(total: number, isFiltered: boolean): string {
  const noun = total === 1 ? 'audit' : 'audits';
  const verb = isFiltered ? (total === 1 ? ' matches' : ' match') : '';
  return `${formatCount(total)} ${noun}${verb}`;
}

/** "Page 2 of 5" (at least one page, even for an empty list). */
export function pageOfText(page: number, total: number, pageSize: number): string {
  return `Page ${formatCount(page)} of ${formatCount(Math.max(1, Math.ceil(total / pageSize)))}`;
}

/** "1 entry", "6 entries"; "1 crawl row", "318 crawl rows". */
export function entriesText(n: number): string {
  return countText(n, 'entry', 'entries');
}

export function crawlRowsText(n: number): string {
  return countText(n, 'crawl row');
}
