// Wording shared by the report page and its PDF: short evidence, UTC dates.
import { formatDateTime } from '@/lib/core/format';
import { evidenceLines } from '@/lib/findings/format';
import type { FindingDto } from '@/lib/findings/schema';

/** Cuts text to `max` characters, ending with an ellipsis when it was longer. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** The evidence of a finding as one short sentence list ("—" when there is nothing to say). */
export function shortEvidence(finding: FindingDto, max = 160): string {
  const text = evidenceLines(finding).join('; ');
  return text ? clip(text, max) : '—';
}

/** A date and time in UTC, the same for every reader of a shared report ("—" when unknown). */
export function utcDateTime(iso: string | null | undefined): string {
  const text = formatDateTime(iso, 'UTC');
  return text === '—' ? text : `${text} UTC`;
}

/** A hop chain by its statuses, in order ("301 → 200"; "no answer" when nothing answered). */
export function chainText(chain: readonly { status: number }[]): string {
  return chain.length === 0 ? 'no answer' : chain.map((hop) => hop.status).join(' → ');
}

/** A share as a percentage, as the app shows it: one decimal under 10 %, "—" when nothing was measured. */
export function percentText(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(value > 0 && value < 0.1 ? 1 : 0)} %`;
}
