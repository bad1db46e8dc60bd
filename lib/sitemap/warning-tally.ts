// Keeps warnings per file instead of per occurrence: a sitemap with 40,000 entries lacking <loc>
// must produce one readable warning, not 40,000 rows.

import type { SitemapWarning } from './types';

type Format = (count: number, firstLine: number) => string;

interface Counted {
  count: number;
  line: number;
  format: Format;
}

export class WarningTally {
  private readonly warnings: SitemapWarning[];
  private readonly counted = new Map<string, Counted>();
  private readonly seen = new Set<string>();

  constructor(warnings: SitemapWarning[]) {
    this.warnings = warnings;
  }

  /** Counts an occurrence; one warning per code (count + first line) is added by `flush`. */
  count(code: string, line: number, format: Format): void {
    const existing = this.counted.get(code);
    if (existing) existing.count++;
    else this.counted.set(code, { count: 1, line, format });
  }

  /** Adds `warning` the first time `key` is seen for `code`; later ones are dropped. */
  once(code: string, key: string, warning: SitemapWarning): void {
    const id = `${code}\u0000${key}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.warnings.push(warning);
  }

  flush(): void {
    for (const [code, { count, line, format }] of this.counted) {
      this.warnings.push({ code, message: format(count, line), line });
    }
    this.counted.clear();
  }
}
