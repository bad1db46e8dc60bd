// Readable text for the CLI: lint rules grouped by severity with counts, a few examples and the fix;
// a diff as counts and first examples. JSON output is the same data, unformatted (cli.ts).
import type { DiffResult } from './diff';
import type { LintTotals } from './engine';
import type { Skipped } from './local-tree';
import type { Unreadable } from './read-tree';
import type { LintExample, LintResult, Severity } from './types';

/** Examples printed per rule; --json carries all that were kept (20). */
const TEXT_EXAMPLES = 5;
const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

const n = (value: number) => value.toLocaleString('en-US');

function where(example: LintExample): string {
  // A reader's error message starts with its own "line 9, column 4:".
  const said = example.detail?.startsWith('line ') === true;
  const line = example.line === undefined || said ? '' : `:${example.line}`;
  return `${example.file}${line}`;
}

function exampleLine(example: LintExample): string {
  const subject = example.url === undefined ? where(example) : `${example.url}  (${where(example)})`;
  return `      - ${subject}${example.detail === undefined ? '' : `: ${example.detail}`}`;
}

export interface LintReport {
  totals: LintTotals;
  robots: string | null;
  results: LintResult[];
  unreadable: Unreadable[];
  childrenNotFound: number;
  /** Paths the walk did not follow (symbolic links, the file cap): the first 20 of `skippedCount`. */
  skipped: Skipped[];
  skippedCount: number;
}

export function formatLint(report: LintReport): string {
  const { totals, results } = report;
  const out: string[] = [
    `Linted ${n(totals.files)} file${totals.files === 1 ? '' : 's'}: ${n(totals.urls)} URLs (${n(totals.distinctUrls)} distinct), ${n(totals.children)} sitemaps named by indexes.`,
    report.robots === null
      ? 'robots.txt: not checked (give --robots, or lint a URL).'
      : `robots.txt: ${report.robots}`,
  ];
  if (report.childrenNotFound > 0)
    out.push(
      `${n(report.childrenNotFound)} child sitemap(s) of local indexes have no file of that name beside them: not read.`,
    );
  if (report.skippedCount > 0) {
    out.push(`${n(report.skippedCount)} path(s) skipped (symbolic links are not followed):`);
    for (const item of report.skipped) out.push(`  - ${item.path}: ${item.reason}`);
    if (report.skippedCount > report.skipped.length)
      out.push(`  … ${n(report.skippedCount - report.skipped.length)} more`);
  }
  for (const severity of ['error', 'warning', 'info'] as const) {
    const rules = results.filter((result) => result.severity === severity);
    if (rules.length === 0) continue;
    const findings = rules.reduce((sum, rule) => sum + rule.count, 0);
    out.push(
      '',
      `${HEADINGS[severity]} (${rules.length} rule${rules.length === 1 ? '' : 's'}, ${n(findings)} found)`,
    );
    for (const rule of rules) {
      out.push(`  ${rule.code}  ${rule.title}: ${n(rule.count)}`, `    fix: ${rule.fix}`);
      for (const example of rule.examples.slice(0, TEXT_EXAMPLES)) out.push(exampleLine(example));
      const more = rule.count - Math.min(rule.examples.length, TEXT_EXAMPLES);
      if (more > 0)
        out.push(
          `      … ${n(more)} more${rule.examples.length > TEXT_EXAMPLES ? ' (--json lists 20)' : ''}`,
        );
    }
  }
  if (results.length === 0) out.push('', 'No problems found.');
  return `${out.join('\n')}\n`;
}

export function formatDiff(diff: DiffResult): string {
  const out = [
    `Old: ${n(diff.old.files)} files, ${n(diff.old.urls)} URLs. New: ${n(diff.new.files)} files, ${n(diff.new.urls)} URLs.`,
  ];
  const list = (title: string, count: number, lines: string[]) => {
    out.push('', `${title}: ${n(count)}`, ...lines.map((line) => `  ${line}`));
    if (count > lines.length) out.push(`  … ${n(count - lines.length)} more (--limit)`);
  };
  list(
    'Added',
    diff.added.count,
    diff.added.examples.map((url) => `+ ${url}`),
  );
  list(
    'Removed',
    diff.removed.count,
    diff.removed.examples.map((url) => `- ${url}`),
  );
  list(
    'Lastmod changed',
    diff.lastmodChanged.count,
    diff.lastmodChanged.examples.map((c) => `~ ${c.url}  ${c.old ?? '(none)'} → ${c.new ?? '(none)'}`),
  );
  return `${out.join('\n')}\n`;
}
