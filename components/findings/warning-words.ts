// What the audit's warnings say on the page (pure): signal warnings are told apart (they filter the
// review), and the "recently changed pages are held" hint is kept only when some are.

import type { AuditIssue } from '@/lib/audits/schema';
import { formatCount } from '@/lib/core/format';
import { type FindingSignal, type FindingsOverview, SIGNALS } from '@/lib/findings/schema';

export function isSignalWarning(warning: { code: string }): warning is { code: FindingSignal } {
  return (SIGNALS as readonly string[]).includes(warning.code);
}

/** The clause audits reconciled before the held count was written ended with (lib/reconcile/summary.ts
 * now words it itself); for those, the page says what is true. */
const HELD_CLAUSE = /: recently changed pages are held, not judged\.?$/;

/** The clause audits reconciled before it was reworded end with when none is held (see reconcile/summary). */
const NONE_HELD_CLAUSE = /: every page changed since was crawled, so none is held for it$/;

/** The warning's message as the page shows it. `crawl_older_than_lastmod` says recently changed pages
 * are held only when the held list has some (`newer_than_crawl`), and then how many. */
export function warningMessage(warning: AuditIssue, findings: FindingsOverview | null): string {
  if (warning.code !== 'crawl_older_than_lastmod') return warning.message;
  if (NONE_HELD_CLAUSE.test(warning.message))
    return warning.message.replace(
      NONE_HELD_CLAUSE,
      ': the crawl has a row for every page changed since, so none is held',
    );
  if (!findings || !HELD_CLAUSE.test(warning.message)) return warning.message;
  const held = findings.held.byReason.newer_than_crawl ?? 0;
  const dates = warning.message.replace(HELD_CLAUSE, '');
  if (held === 0) return `${dates}. No recently changed page is missing from the crawl.`;
  return `${dates}: ${formatCount(held)} recently changed ${held === 1 ? 'page is' : 'pages are'} held, not judged.`;
}
