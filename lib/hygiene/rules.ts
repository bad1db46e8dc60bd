// The catalogue of sitemap lint rules: one stable code each, its severity, a title and the fix a
// user can apply. The engine only counts; what a rule means to a reader lives here and in docs/hygiene.md.
import type { Severity } from './types';

interface Rule {
  severity: Severity;
  title: string;
  fix: string;
}

export const RULES = {
  file_unreadable: {
    severity: 'error',
    title: 'File could not be fetched or parsed',
    fix: 'Serve the file with HTTP 200 as well-formed XML (or one URL per line); the example says which line broke.',
  },
  file_too_many_urls: {
    severity: 'error',
    title: 'File holds more than 50,000 URLs',
    fix: 'Split the file into several sitemaps of at most 50,000 URLs each and list them in a sitemap index.',
  },
  file_too_large: {
    severity: 'error',
    title: 'File is larger than 50 MiB uncompressed',
    fix: 'Split the file so that each one stays under 50 MiB (52,428,800 bytes) before compression.',
  },
  index_too_many_children: {
    severity: 'error',
    title: 'Sitemap index lists more than 50,000 sitemaps',
    fix: 'Split the index into several indexes of at most 50,000 children and submit each one.',
  },
  loc_relative: {
    severity: 'error',
    title: 'Relative location',
    fix: 'Write every <loc> as an absolute URL with scheme and host (https://example.com/page); it was judged as resolved against the sitemap’s URL.',
  },
  loc_invalid: {
    severity: 'error',
    title: 'Location is not a valid URL',
    fix: 'Percent-encode spaces and other unsafe characters and make sure the host is valid.',
  },
  loc_non_http: {
    severity: 'error',
    title: 'Location is not http(s) (javascript:, data:, mailto:, …)',
    fix: 'List only http(s) page URLs; remove javascript:, data:, mailto: and other schemes.',
  },
  loc_too_long: {
    severity: 'error',
    title: 'Location longer than 2,048 characters',
    fix: 'Shorten the URL below 2,048 characters (search engines ignore longer ones) or leave it out.',
  },
  loc_missing: {
    severity: 'error',
    title: 'Entry without <loc>',
    fix: 'Give every <url> and <sitemap> element a non-empty <loc> child.',
  },
  robots_disallowed: {
    severity: 'error',
    title: 'URL disallowed by robots.txt',
    fix: 'Remove the URL from the sitemap, or allow it in robots.txt if it should be crawled.',
  },
  wrong_host: {
    severity: 'warning',
    title: 'URL on another host than the sitemap',
    fix: 'List only URLs of the sitemap’s own host; cross-host sitemaps are accepted only when the other host’s robots.txt names this sitemap (cross-submit).',
  },
  http_on_https: {
    severity: 'warning',
    title: 'http URL on an https site',
    fix: 'List the https URL that the http one redirects to.',
  },
  trailing_slash_mixed: {
    severity: 'warning',
    title: 'Mixed trailing-slash policy within a section',
    fix: 'Use one form (with or without the trailing slash) per section: the one the pages canonicalise to.',
  },
  duplicate_in_file: {
    severity: 'warning',
    title: 'URL listed twice in the same file',
    fix: 'List each URL once.',
  },
  duplicate_across_files: {
    severity: 'warning',
    title: 'URL listed in more than one file',
    fix: 'List each URL in exactly one sitemap file.',
  },
  lastmod_invalid: {
    severity: 'warning',
    title: 'lastmod is not a W3C datetime',
    fix: 'Write lastmod as YYYY-MM-DD or a full W3C datetime with time zone (2024-05-01T10:00:00+00:00).',
  },
  lastmod_before_1970: {
    severity: 'warning',
    title: 'lastmod before 1970',
    fix: 'Write the real date the page last changed, or leave lastmod out.',
  },
  lastmod_future: {
    severity: 'warning',
    title: 'lastmod in the future',
    fix: 'Write the date the page really changed; a future date makes search engines distrust every lastmod of the site.',
  },
  lastmod_uniform: {
    severity: 'warning',
    title: 'Same lastmod on more than 90% of a file’s entries (a build-time stamp)',
    fix: 'Set lastmod from each page’s own last content change, not from the time the sitemap was built.',
  },
  faceted_url: {
    severity: 'warning',
    title: 'Faceted or parameter URL (?)',
    fix: 'List the canonical URL without filter and sort parameters.',
  },
  search_url: {
    severity: 'warning',
    title: 'Internal search results URL',
    fix: 'Leave internal search result pages out of sitemaps.',
  },
  sitemap_redirected: {
    severity: 'warning',
    title: 'Sitemap served through a redirect',
    fix: 'Submit and reference the final URL of the sitemap (in robots.txt and in indexes).',
  },
  content_type_not_xml: {
    severity: 'warning',
    title: 'Sitemap served with a non-XML content type',
    fix: 'Serve XML sitemaps as application/xml (text sitemaps as text/plain, .gz files as application/gzip).',
  },
  gzip_mismatch: {
    severity: 'warning',
    title: 'gzip content and .gz extension disagree',
    fix: 'Name gzip-compressed files *.gz and serve uncompressed XML without the .gz extension.',
  },
  bom: {
    severity: 'warning',
    title: 'File starts with a byte order mark',
    fix: 'Save the file as UTF-8 without a BOM; some readers reject it.',
  },
  namespace_problem: {
    severity: 'warning',
    title: 'Missing, wrong or undeclared XML namespace',
    fix: 'Declare xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" on the root and every prefix you use.',
  },
  child_refused: {
    severity: 'warning',
    title: 'Child of a local index refused: it would be read from outside the index’s folder',
    fix: 'List children as absolute http(s) URLs whose paths name files inside the build folder (no "..", no %2F or %5C, no symbolic link leading out); the example says why.',
  },
  reader_warning: {
    severity: 'warning',
    title: 'Other problem the sitemap reader noted',
    fix: 'See each example: the reader read the file anyway, as search engines would, but they may not.',
  },
  pagination_url: {
    severity: 'info',
    title: 'Pagination URL',
    fix: 'List page 1 (the canonical listing) rather than its ?page=N or /page/N pages, unless they carry unique content.',
  },
  priority_present: {
    severity: 'info',
    title: '<priority> present (ignored by Google)',
    fix: 'You may drop <priority>: Google ignores it.',
  },
  changefreq_present: {
    severity: 'info',
    title: '<changefreq> present (ignored by Google)',
    fix: 'You may drop <changefreq>: Google ignores it; keep lastmod accurate instead.',
  },
} satisfies Record<string, Rule>;

export type RuleCode = keyof typeof RULES;

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function severityRank(severity: Severity): number {
  return ORDER[severity];
}
