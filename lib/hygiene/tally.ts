// Per-rule counters with the first few examples: the engine's only state that grows with findings, and
// it does not grow past MAX_EXAMPLES per rule however many entries a tree has.
import { RULES, type RuleCode, severityRank } from './rules';
import type { LintExample, LintResult } from './types';

export const MAX_EXAMPLES = 20;
/** Characters of a location kept in an example: enough to recognise it, never a hostile 60 MB value. */
const EXAMPLE_URL_CHARS = 300;

function shorten(value: string): string {
  return value.length > EXAMPLE_URL_CHARS ? `${value.slice(0, EXAMPLE_URL_CHARS)}…` : value;
}

export class RuleTally {
  private readonly counts = new Map<RuleCode, number>();
  private readonly examples = new Map<RuleCode, LintExample[]>();

  add(code: RuleCode, example: LintExample, count = 1): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + count);
    let list = this.examples.get(code);
    if (!list) {
      list = [];
      this.examples.set(code, list);
    }
    if (list.length < MAX_EXAMPLES) {
      list.push(example.url === undefined ? example : { ...example, url: shorten(example.url) });
    }
  }

  /** Rules that fired, errors first, then by count. */
  results(): LintResult[] {
    const results: LintResult[] = [];
    for (const [code, count] of this.counts) {
      const rule = RULES[code];
      results.push({
        code,
        severity: rule.severity,
        title: rule.title,
        count,
        examples: this.examples.get(code) ?? [],
        fix: rule.fix,
      });
    }
    return results.sort(
      (a, b) =>
        severityRank(a.severity) - severityRank(b.severity) ||
        b.count - a.count ||
        (a.code < b.code ? -1 : 1),
    );
  }
}
