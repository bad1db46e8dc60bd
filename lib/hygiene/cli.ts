// `sitemap-audit`: the lint rules and a tree diff for build pipelines, without a database.
// Exit codes: 0 clean or below the threshold, 1 threshold hit, 2 usage error or unreadable input.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import robotsParser from 'robots-parser';
import { DiffCollector } from './diff';
import { LintEngine, type RobotsRules } from './engine';
import { fetchText, isUrl, MAX_FILES, TreeReader, type Unreadable } from './read-tree';
import { formatDiff, formatLint } from './report';
import { severityRank } from './rules';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `Usage: sitemap-audit <command> [options]

Commands:
  lint <file-or-url>...   Check sitemap files, folders of them, or sitemap / robots.txt / site URLs
  diff <old> <new>        URLs added, removed and whose lastmod changed between two sitemap trees

Run sitemap-audit <command> --help for its options.
`;

const LINT_USAGE = `Usage: sitemap-audit lint <file-or-url>... [options]

Reads every file (XML, gzip or text sitemaps; a folder: every .xml, .gz and .txt in it) and URL (a
sitemap, a robots.txt or a site root), follows sitemap indexes, and reports each rule that fires.

Options:
  --json                   Print the report as JSON
  --fail-on <severity>     Exit 1 when a rule of this severity or worse fires: error (default) or warning
  --base <site-url>        Resolve relative locations of local files against this URL and judge hosts
                           against it (default: the site of the first absolute location read)
  --robots <file-or-url>   robots.txt to check URLs against (default: the site's own, for URL inputs)
  --max-files <n>          Files listed in a folder and read in all before stopping (default 100000)
  -h, --help               Show this help

Exit codes: 0 no rule at or above the threshold, 1 threshold hit, 2 usage error or unreadable input.
`;

const DIFF_USAGE = `Usage: sitemap-audit diff <old> <new> [options]

<old> and <new> are sitemap trees: a file, a folder of files, or a URL (indexes are followed).

Options:
  --json          Print the result as JSON
  --limit <n>     Examples listed per list (default 20)
  --base <url>    Resolve relative locations of local files against this URL
  --max-files <n> Files listed in a folder and read per tree before stopping (default 100000)
  -h, --help      Show this help

Exit codes: 0 compared, 2 usage error or unreadable input.
`;

class UsageError extends Error {}

function reportUnreadable(io: Io, unreadable: Unreadable[]): void {
  for (const item of unreadable.slice(0, 20)) {
    const line = item.line !== undefined && !item.message.startsWith('line ') ? `line ${item.line}: ` : '';
    io.err(`sitemap-audit: cannot read ${item.file}: ${line}${item.message}\n`);
  }
  if (unreadable.length > 20)
    io.err(`sitemap-audit: … and ${unreadable.length - 20} more unreadable files\n`);
}

/** Skipped paths and refused children, on stderr (the lint also reports refusals as a finding). */
function reportSkipped(io: Io, reader: TreeReader): void {
  for (const item of reader.refused)
    io.err(`sitemap-audit: refused child ${item.path} (${item.file}:${item.line}): ${item.reason}\n`);
  if (reader.refusedCount > reader.refused.length)
    io.err(`sitemap-audit: … and ${reader.refusedCount - reader.refused.length} more refused children\n`);
  for (const item of reader.skipped) io.err(`sitemap-audit: skipped ${item.path}: ${item.reason}\n`);
  if (reader.skippedCount > reader.skipped.length)
    io.err(`sitemap-audit: … and ${reader.skippedCount - reader.skipped.length} more skipped paths\n`);
}

function checkMaxFiles(value: string | undefined): number {
  if (value === undefined) return MAX_FILES;
  const max = Number(value);
  if (!Number.isInteger(max) || max < 1)
    throw new UsageError(`--max-files must be a whole number above 0, not "${value}"`);
  return max;
}

function checkBase(base: string | undefined): string | null {
  if (base === undefined) return null;
  if (!isUrl(base)) throw new UsageError(`--base must be an http(s) URL, not "${base}"`);
  return new URL(base).href;
}

async function loadRobots(
  robots: string | undefined,
  inputs: string[],
  base: string | null,
): Promise<{ rules: RobotsRules; source: string } | null> {
  const site = inputs.find(isUrl) ?? base;
  if (robots === undefined) {
    if (!inputs.some(isUrl) || site === undefined || site === null) return null;
    const url = new URL('/robots.txt', site).href;
    const fetched = await fetchText(url);
    return fetched
      ? { rules: robotsParser(fetched.finalUrl, fetched.body.toString('utf8')), source: url }
      : null;
  }
  if (isUrl(robots)) {
    const fetched = await fetchText(robots);
    if (!fetched) throw new UsageError(`cannot fetch --robots ${robots}`);
    return { rules: robotsParser(fetched.finalUrl, fetched.body.toString('utf8')), source: robots };
  }
  if (site === undefined || site === null)
    throw new UsageError('a local --robots file needs --base <site-url> (or a URL input) to know its site');
  let text: string;
  try {
    text = readFileSync(robots, 'utf8');
  } catch {
    throw new UsageError(`cannot read --robots file ${robots}`);
  }
  return { rules: robotsParser(new URL('/robots.txt', site).href, text), source: robots };
}

async function lint(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      'fail-on': { type: 'string' },
      base: { type: 'string' },
      robots: { type: 'string' },
      'max-files': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(LINT_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('lint needs at least one file, folder or URL');
  const failOn = values['fail-on'] ?? 'error';
  if (failOn !== 'error' && failOn !== 'warning')
    throw new UsageError(`--fail-on must be "error" or "warning", not "${failOn}"`);
  const base = checkBase(values.base);
  const maxFiles = checkMaxFiles(values['max-files']);
  const robots = await loadRobots(values.robots, positionals, base);
  const engine = new LintEngine({ robots: robots?.rules ?? null });
  const reader = new TreeReader(engine, { base, maxFiles });
  await reader.read(positionals);
  const results = engine.finish();
  const report = {
    totals: engine.totals,
    robots: robots?.source ?? null,
    results,
    unreadable: reader.unreadable,
    childrenNotFound: reader.childrenNotFound,
    skipped: reader.skipped,
    skippedCount: reader.skippedCount,
  };
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatLint(report));
  reportUnreadable(io, reader.unreadable);
  if (values.json) reportSkipped(io, reader);
  if (reader.unreadable.length > 0) return 2;
  const threshold = severityRank(failOn);
  return results.some((result) => severityRank(result.severity) <= threshold) ? 1 : 0;
}

async function diff(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      limit: { type: 'string' },
      base: { type: 'string' },
      'max-files': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(DIFF_USAGE);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('diff needs exactly two trees: <old> <new>');
  const limit = Number(values.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 0) throw new UsageError('--limit must be a whole number');
  const base = checkBase(values.base);
  const maxFiles = checkMaxFiles(values['max-files']);
  const [before, after] = positionals as [string, string];
  const collector = new DiffCollector(limit);
  const unreadable: Unreadable[] = [];
  const readers: TreeReader[] = [];
  for (const [phase, tree] of [
    ['old', before],
    ['new', after],
    ['removed', before],
  ] as const) {
    collector.phase = phase;
    const reader = new TreeReader(collector, { base, maxFiles });
    await reader.read([tree]);
    if (phase !== 'removed') {
      unreadable.push(...reader.unreadable);
      readers.push(reader);
    }
  }
  io.out(values.json ? `${JSON.stringify(collector.result, null, 2)}\n` : formatDiff(collector.result));
  reportUnreadable(io, unreadable);
  for (const reader of readers) reportSkipped(io, reader);
  return unreadable.length > 0 ? 2 : 0;
}

/** Runs the command line; resolves with the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'lint') return await lint(rest, io);
    if (command === 'diff') return await diff(rest, io);
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(
        `sitemap-audit: ${(err as Error).message}\n\n${command === 'diff' ? DIFF_USAGE : command === 'lint' ? LINT_USAGE : USAGE}`,
      );
      return 2;
    }
    throw err;
  }
}
