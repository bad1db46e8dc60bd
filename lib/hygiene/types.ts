// Shapes of the sitemap lint: what a rule reports, what the walk tells the engine about each file.

export type Severity = 'error' | 'warning' | 'info';

export interface LintExample {
  /** The entry's location as declared (a bounded prefix), when the example is an entry. */
  url?: string;
  /** The file: its URL, or its path for a local file. */
  file: string;
  line?: number;
  /** What exactly is wrong with this example (a value, a header), when the code alone does not say. */
  detail?: string;
}

export interface LintResult {
  code: string;
  severity: Severity;
  title: string;
  count: number;
  examples: LintExample[];
  fix: string;
}

/** What the walk knows about a file before its first byte is parsed. */
export interface FileMeta {
  /** How the file is named in examples: its final URL, or its local path. */
  label: string;
  /** The URL asked for, when fetched. */
  requestedUrl: string | null;
  /** The URL it was served from after redirects, when fetched. */
  finalUrl: string | null;
  /** What relative locations resolve against and host rules compare with: the final URL, else --base. */
  base: string | null;
  contentType: string | null;
  contentEncoding: string | null;
  /** The file's name (or URL path): its extension is compared with its content. */
  name: string;
  /** Whether the bytes start with a byte order mark (only seen in uncompressed files). */
  bom: boolean;
}

/** A child sitemap an index names: its location as written, its line, and resolved (null if it cannot be). */
export interface ChildRef {
  loc: string;
  line: number;
  url: string | null;
}
