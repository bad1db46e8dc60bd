// Book-keeping shared by the readers: batches valid rows, counts and samples rejections, and folds
// per-value problems into one warning per kind so a million bad timestamps stay one line in the report.
import type { CrawlField, CrawlReport, CrawlRow } from './types';

/** Rows per yielded batch: big enough for COPY to stream efficiently, small enough to stay a few MB. */
export const BATCH_SIZE = 5000;
export const MAX_REJECTIONS_KEPT = 100;

const FIELD_LABELS: Record<CrawlField, string> = {
  url: 'URL',
  status: 'status',
  canonical: 'canonical URL',
  indexable: 'indexability',
  noindex: 'noindex value',
  blockedByRobots: 'robots.txt value',
  crawledAt: 'crawl time',
  depth: 'crawl depth',
  redirectUrl: 'redirect URL',
  contentType: 'content type',
  inlinks: 'inlinks count',
  canonicalised: 'canonicalised value',
};

interface FieldProblem {
  count: number;
  line: number;
  reason: string;
}

export class RowCollector {
  private batch: CrawlRow[] = [];
  private readonly problems = new Map<CrawlField, FieldProblem>();

  constructor(private readonly report: CrawlReport) {}

  accept(row: CrawlRow): void {
    this.batch.push(row);
    this.report.rows++;
  }

  reject(line: number, reason: string): void {
    this.report.rejected++;
    if (this.report.rejections.length < MAX_REJECTIONS_KEPT) this.report.rejections.push({ line, reason });
  }

  /** An optional value could not be read; the row is kept with that value left empty. */
  dropValue(field: CrawlField, line: number, reason: string): void {
    const problem = this.problems.get(field);
    if (problem === undefined) this.problems.set(field, { count: 1, line, reason });
    else problem.count++;
  }

  warn(code: string, message: string): void {
    const existing = this.report.warnings.find((warning) => warning.code === code);
    if (existing === undefined) this.report.warnings.push({ code, message });
    else existing.message = message;
  }

  /** The pending batch once it is full (or whatever is left when `final`), else null. */
  take(final = false): CrawlRow[] | null {
    if (this.batch.length === 0 || (!final && this.batch.length < BATCH_SIZE)) return null;
    const full = this.batch;
    this.batch = [];
    this.syncWarnings();
    return full;
  }

  syncWarnings(): void {
    for (const [field, problem] of this.problems) {
      const rows = problem.count === 1 ? '1 row has' : `${problem.count} rows have`;
      this.warn(
        `invalid_${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`,
        `${rows} an unreadable ${FIELD_LABELS[field]}, left empty (first at line ${problem.line}: ${problem.reason}).`,
      );
    }
  }
}
