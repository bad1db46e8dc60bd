// What an import covered, in the words the audit page shows: one line per export ("Drilldown: Page with
// redirect — All known pages — 46 URLs"), saying when Search Console capped a table. Pure, isomorphic.
import type { ImportedExport } from './import-schema';

const count = (n: number) => n.toLocaleString('en');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

export function describeExport(exp: ImportedExport): string {
  const scope = exp.description.sitemap ? ` — ${exp.description.sitemap}` : '';
  switch (exp.kind) {
    case 'drilldown': {
      const issue = exp.description.issue ?? 'issue unknown (no Metadata.csv)';
      const capped =
        exp.isTruncated && exp.chartTotal !== null
          ? ` (table capped: the chart says ${count(exp.chartTotal)})`
          : '';
      return `Drilldown: ${issue}${scope} — ${plural(exp.rows, 'URL', 'URLs')}${capped}`;
    }
    case 'overview':
      return `Page indexing overview${scope} — ${plural(exp.rows, 'reason', 'reasons')}`;
    case 'sitemaps':
      return `Sitemaps report — ${plural(exp.rows, 'sitemap', 'sitemaps')}`;
    case 'performance':
      return `Performance: pages — ${plural(exp.rows, 'page', 'pages')}`;
  }
}

/** "Table.csv line 4" or, for the file as a whole, its name. */
export function problemPlace(name: string, line: number | null): string {
  return line === null ? name : `${name} line ${line}`;
}
