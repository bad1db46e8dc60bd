// What an import must not store, checked on the exports read from its files before anything is stored
// (by the request, for a 400, and again by the import's step): a drill-down table that does not say which
// issue it lists, and URLs of another site. Pure: the caller reads the files and the audit's hosts.
import { isKnownReason } from '@/lib/findings/evidence/gsc-reasons';
import { type DrilldownExport, type GscExport, GscFileError } from './types';

export interface VetOptions {
  /** The issue the request names (the import form's select, the API's `issue` field); null: none. */
  issue: string | null;
  /** Hosts the audit's sitemaps declare (and the site's own), lower case, without a port. Empty: the
   * audit declares no http(s) URL, so there is nothing to compare with and the check is skipped. */
  siteHosts: readonly string[];
}

export interface VetResult {
  exports: GscExport[];
  errors: GscFileError[];
}

/** Hosts named in a refusal, and example URLs, at most this many. */
const SHOWN = 3;

/** The host of an absolute http(s) URL, lower case, without port; null for anything else. */
export function hostOf(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * Whether a URL's host is the audit's site: a declared host, its www / non-www twin, or a host under the
 * declared host's domain (`api.example.com` for `www.example.com`): a domain property's exports list
 * every subdomain of the domain, and Search Console's own totals count them too.
 */
export function isSiteHost(host: string, siteHosts: readonly string[]): boolean {
  return siteHosts.some((declared) => {
    const bare = declared.replace(/^www\./, '');
    return host === bare || host === `www.${bare}` || host.endsWith(`.${bare}`);
  });
}

function tableName(exp: DrilldownExport): string {
  return exp.table?.name ?? exp.files[0] ?? 'Table.csv';
}

/** The URL rows an export holds: a drill-down's table, a Performance export's pages. */
function urlRows(exp: GscExport): { file: string; rows: { line: number; url: string }[] } | null {
  if (exp.kind === 'drilldown' && exp.table) return { file: exp.table.name, rows: exp.table.rows };
  if (exp.kind === 'performance') return { file: exp.pages.name, rows: exp.pages.rows };
  return null;
}

function otherSite(exp: GscExport, siteHosts: readonly string[]): GscFileError | null {
  const found = urlRows(exp);
  if (!found || siteHosts.length === 0) return null;
  const off = new Map<string, { count: number; line: number }>();
  for (const row of found.rows) {
    const host = hostOf(row.url);
    if (host === null || isSiteHost(host, siteHosts)) continue;
    const seen = off.get(host);
    if (seen) seen.count++;
    else off.set(host, { count: 1, line: row.line });
  }
  if (off.size === 0) return null;
  const hosts = [...off.entries()].sort((a, b) => b[1].count - a[1].count);
  const named = hosts
    .slice(0, SHOWN)
    .map(([host, { count }]) => `${host} (${count} ${count === 1 ? 'URL' : 'URLs'})`)
    .join(', ');
  const rest = hosts.length - SHOWN;
  const more = rest > 0 ? ` and ${rest} more ${rest === 1 ? 'host' : 'hosts'}` : '';
  const declared = siteHosts.slice(0, SHOWN).join(', ') + (siteHosts.length > SHOWN ? ', …' : '');
  const first = Math.min(...hosts.map(([, h]) => h.line));
  return new GscFileError(found.file, [
    {
      line: first,
      message: `its URLs belong to another site: ${named}${more}; this audit's sitemaps declare ${declared}. Export the report from this site's Search Console property (the property of another site would count as this one's coverage)`,
    },
  ]);
}

function severalLoneTables(names: readonly string[]): GscFileError {
  return new GscFileError(names.join(', '), [
    {
      line: null,
      message: `${names.length} drill-down tables have no Metadata.csv, and one issue cannot be told apart between them: import them one at a time, each with its issue`,
    },
  ]);
}

/**
 * Drill-down tables without an issue take the one the request names (there must be exactly one such
 * table then: which issue is whose cannot be told), and are refused without one; URLs of another site
 * refuse their export. The exports come back with the named issue set in their description.
 */
export function vetExports(exports: readonly GscExport[], options: VetOptions): VetResult {
  const errors: GscFileError[] = [];
  const issue = options.issue?.trim() || null;
  if (issue !== null && !isKnownReason(issue)) {
    errors.push(
      new GscFileError('issue', [
        {
          line: null,
          message: `'${issue}' is not a reason Search Console uses; choose one of the form's reasons (Page with redirect, Not found (404), …) as Metadata.csv's Issue row writes it`,
        },
      ]),
    );
  }
  const lone = exports.filter(
    (exp): exp is DrilldownExport =>
      exp.kind === 'drilldown' && exp.table !== null && !exp.description.issue?.trim(),
  );
  if (lone.length > 0 && issue === null) {
    for (const exp of lone) {
      errors.push(
        new GscFileError(tableName(exp), [
          {
            line: null,
            message:
              "a drill-down table without its Metadata.csv does not say which issue it lists, so its URLs cannot be stored as indexed or not indexed: upload it with its Metadata.csv (or the zip Search Console downloads), or name its issue (the form's 'Issue of a lone Table.csv', the API's 'issue' field)",
          },
        ]),
      );
    }
  } else if (lone.length > 1) {
    errors.push(severalLoneTables(lone.map(tableName)));
  }
  for (const exp of exports) {
    const error = otherSite(exp, options.siteHosts);
    if (error) errors.push(error);
  }
  if (errors.length > 0 || lone.length === 0) return { exports: [...exports], errors };
  const named = exports.map((exp) =>
    lone.includes(exp as DrilldownExport)
      ? {
          ...exp,
          description: { ...exp.description, issue },
          warnings: [
            ...exp.warnings.filter((w) => !w.startsWith('no Metadata.csv')),
            `no Metadata.csv: the issue was named on import (${issue}); the sitemap it covers is unknown`,
          ],
        }
      : exp,
  );
  return { exports: named, errors };
}

/**
 * The same rules as vetExports, one export at a time, for an import that stores each export as it is
 * read: `upfront` before reading (the named issue), `vet` per export (its lone table's issue, its
 * site), `finish` after the last one (several lone tables for one named issue).
 */
export function exportVetter(options: VetOptions) {
  const lone: string[] = [];
  const issue = options.issue?.trim() || null;
  return {
    upfront(): GscFileError[] {
      return issue !== null && !isKnownReason(issue) ? vetExports([], options).errors : [];
    },
    vet(exp: GscExport): VetResult {
      const isLone = exp.kind === 'drilldown' && exp.table !== null && !exp.description.issue?.trim();
      if (isLone) lone.push(tableName(exp));
      // One export on its own: the count of lone tables is finish's.
      return vetExports([exp], options);
    },
    finish(): GscFileError[] {
      return issue === null || lone.length <= 1 ? [] : [severalLoneTables(lone)];
    },
  };
}
