// Titles for the audit's errors and warnings (pure): readers get words, the stable code stays in the API
// and in a data attribute. A code with no title here shows its message alone, which is always a sentence.
// The app, the shared report and its PDF use the same words.
import { isSanityWarning, sanityWarningTitle } from './format';
import { signalInfo } from './reasons';
import { type FindingSignal, SIGNALS } from './schema';

const ISSUE_TITLES: Record<string, string> = {
  // The audit itself
  audit_failed: 'The audit failed',
  audit_budget_spent: 'The audit ran out of time to fetch',
  inflate_budget_spent: 'The sitemap files inflate past their budget',
  no_crawl: 'No crawl export',
  crawl_rows_rejected: 'Some crawl rows were rejected',
  crawl_repeated: 'The same crawl as the previous run',
  // Fetching and reading sitemap files
  read_failed: 'A file could not be read',
  not_modified_without_copy: 'Unchanged, but no earlier copy to reuse',
  no_sitemap_found: 'No sitemap found',
  no_sitemap_lines: 'robots.txt names no sitemap',
  bad_child_url: 'An index lists an unusable sitemap URL',
  cross_host_sitemap: 'A sitemap on another host',
  too_deep: 'Sitemap indexes nested too deep',
  too_many_files: 'Too many sitemap files',
  too_many_entries: 'Too many entries',
  limit_reached: 'A limit was reached',
  // Parsing a sitemap
  empty: 'Empty file',
  not_a_sitemap: 'Not a sitemap',
  too_large: 'File too large',
  gzip_error: 'Broken gzip',
  corrupt_gzip: 'Broken gzip',
  bad_encoding: 'Unknown text encoding',
  invalid_utf8: 'Invalid UTF-8',
  encoding_mismatch: 'Declared encoding does not match',
  xml_doctype: 'XML with a DOCTYPE',
  xml_malformed: 'Malformed XML',
  xml_too_deep: 'XML nested too deep',
  xml_token_too_long: 'An XML token is too long',
  missing_namespace: 'Missing sitemap namespace',
  nonstandard_namespace: 'Non-standard sitemap namespace',
  unbound_prefix: 'Undeclared XML prefix',
  unknown_element: 'Unknown element',
  content_after_root: 'Content after the end of the sitemap',
  over_protocol_limit: 'Over the protocol’s 50,000 URLs or 50 MB',
  missing_loc: 'Entries without a URL',
  bare_loc: 'A bare URL outside an entry',
  loc_too_long: 'URLs too long',
  lastmod_invalid: 'Invalid lastmod dates',
  non_http_loc: 'URLs that are not http(s)',
  mixed_entries: 'URLs and sitemaps mixed in one file',
  non_url_lines: 'Lines that are not URLs',
  // robots.txt
  bare_url_line: 'A bare URL line in robots.txt',
  duplicate_sitemap: 'A sitemap listed twice',
  invalid_sitemap: 'An invalid Sitemap line',
  relative_sitemap: 'A relative Sitemap line',
  // The crawl export
  empty_file: 'Empty crawl export',
  unsupported_format: 'Unknown crawl export format',
  unmapped_url: 'No URL column',
  edge_list: 'A link export, not a page list',
  missing_status: 'No Status Code column',
  unknown_column: 'Unknown column',
  malformed_csv: 'Malformed CSV',
  line_too_long: 'A line is too long',
  no_valid_rows: 'No usable crawl rows',
  banner_row_skipped: 'A banner row was skipped',
  field_too_long: 'Values too long',
  redirect_chains_not_imported: 'Redirect chains not imported',
};

/** The title of an error or warning, or null when the message has to speak for itself. */
export function issueTitle(code: string): string | null {
  if (isSanityWarning({ code })) return sanityWarningTitle(code);
  if ((SIGNALS as readonly string[]).includes(code)) return signalInfo(code as FindingSignal).label;
  return ISSUE_TITLES[code] ?? null;
}
