// Human wording for findings (reason labels, evidence sentences) and the findings view's URL state:
// list, filters, sort and cursor live in the page's search params so a view can be linked and reloaded.
import { GSC_FILTERS, GSC_MATCHES } from '@/lib/findings/evidence/gsc';
import { VERDICT_FILTERS } from '@/lib/findings/evidence/live';
import { filterParams } from './links';
import { reasonInfo } from './reasons';
import {
  DECISIONS,
  type Decision,
  type FindingDto,
  type FindingList,
  type FindingSort,
  LISTS,
  SIGNALS,
  SORTS,
  type TFindingFilter,
} from './schema';

/** "HTTP 404" for http_404; known reasons get a fixed label, unknown codes are humanised (reasons.ts). */
export function reasonLabel(reason: string): string {
  return reasonInfo(reason).label;
}

const LIST_LABELS: Record<FindingList, string> = { prune: 'Prune', add: 'Add', held: 'Held' };

/** One line on what each list holds. */
export const LIST_HINTS: Record<FindingList, string> = {
  prune: 'Declared in the sitemap, but the crawl cannot back them up',
  add: 'Indexable pages the crawl found that no sitemap declares',
  held: 'Not safe to judge yet',
};

export function listLabel(list: FindingList): string {
  return LIST_LABELS[list];
}

const DECISION_LABELS: Record<Decision, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

export function decisionLabel(decision: Decision): string {
  return DECISION_LABELS[decision];
}

/** The name of a sitemap file as a person would recognise it: upload name, else its URL. */
export function sitemapFileLabel(file: FindingDto['sitemapFile']): string {
  if (!file) return 'No sitemap file';
  return file.uploadName ?? file.url ?? `Sitemap file #${file.id}`;
}

/** A sitemap date as declared: the day alone when it has no time of day (UTC), else day and time in UTC. */
export function formatLastmod(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const text = new Date(time).toISOString();
  return text.endsWith('T00:00:00.000Z')
    ? text.slice(0, 10)
    : `${text.slice(0, 10)} ${text.slice(11, 16)} UTC`;
}

// ── Evidence ─────────────────────────────────────────────────────────────────────────────────────

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function whole(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

/** The date part of an ISO instant (UTC), so sentences read the same in every time zone. */
function day(value: unknown): string | null {
  const iso = text(value);
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toISOString().slice(0, 10);
}

function redirectSentence(finding: FindingDto, evidence: Record<string, unknown>): string | null {
  const target = text(evidence.redirectTarget);
  const status = whole(evidence.status) ?? finding.status;
  if (!target) return finding.reason === 'redirects' && status ? `Redirects (HTTP ${status})` : null;
  const targetStatus = whole(evidence.redirectTargetStatus);
  return targetStatus === null
    ? `Redirects to ${target}`
    : `Redirects to ${target}, which answers ${targetStatus}`;
}

function canonicalSentence(finding: FindingDto, evidence: Record<string, unknown>): string | null {
  const canonical = text(evidence.canonical) ?? finding.canonical;
  if (!canonical || canonical === finding.url) return null;
  const declared = evidence.canonicalDeclared;
  if (declared === true) return `Canonical points to ${canonical} (declared in the sitemap)`;
  if (declared === false) return `Canonical points to ${canonical} (not declared in the sitemap)`;
  return `Canonical points to ${canonical}`;
}

function statusSentence(finding: FindingDto, evidence: Record<string, unknown>): string | null {
  if (finding.reason === 'no_response') return 'The crawl got no response for this URL';
  const status = whole(evidence.status) ?? finding.status;
  if (status === null) return null;
  // A redirect gets its own sentence (with the target), so the bare 3xx would only repeat it.
  const isRedirect = status >= 300 && status < 400;
  if (isRedirect && (text(evidence.redirectTarget) || finding.reason === 'redirects')) return null;
  return `Answers HTTP ${status}`;
}

/** Plain sentences that explain a finding from its evidence; keys it does not know are left to the raw view. */
export function evidenceLines(finding: FindingDto): string[] {
  const evidence = finding.evidence ?? {};
  const lines: (string | null)[] = [];
  const section = text(evidence.section);
  if (finding.reason === 'unreached_by_crawl')
    lines.push(
      section
        ? `The crawl covered ${section} but never reached this URL`
        : 'The crawl never reached this URL',
    );
  const variant = text(evidence.variantUrl);
  if (variant) lines.push(`The crawl found it as ${variant}, a variant of the declared URL`);
  const crawled = text(evidence.crawledUrl);
  if (crawled && crawled !== finding.url && crawled !== variant) lines.push(`Crawled as ${crawled}`);
  lines.push(statusSentence(finding, evidence));
  lines.push(redirectSentence(finding, evidence));
  lines.push(canonicalSentence(finding, evidence));
  if (evidence.blockedByRobots === true || finding.reason === 'blocked_by_robots')
    lines.push('Blocked by robots.txt');
  if (evidence.noindex === true || finding.reason === 'noindex') lines.push('Marked noindex');
  // Only news for pages the sitemap lacks; on a prune row it would read as a reason to keep it.
  if (evidence.indexable === true && finding.list === 'add') lines.push('Indexable in the crawl');
  const lastmod = day(evidence.lastmod) ?? day(finding.lastmod);
  const crawlTime = day(evidence.crawlTime) ?? day(evidence.crawledAt);
  if (lastmod && crawlTime) lines.push(`Last modified ${lastmod}, crawled ${crawlTime}`);
  else if (lastmod && finding.reason === 'newer_than_crawl') lines.push(`Last modified ${lastmod}`);
  else if (crawlTime && finding.list === 'add') lines.push(`Crawled ${crawlTime}`);
  if (section && finding.reason === 'section_not_crawled')
    lines.push(`No page in the section ${section} was crawled`);
  if (finding.reason === 'crawl_mismatch')
    lines.push('Not reached by a crawl that does not match the sitemap (see the warning above the summary)');
  const patternCount = whole(evidence.patternCount);
  if (patternCount !== null) {
    const canonical = text(evidence.canonical) ?? finding.canonical;
    const examples = Array.isArray(evidence.patternExamples)
      ? evidence.patternExamples.filter((e): e is string => typeof e === 'string' && e !== finding.url)
      : [];
    lines.push(
      `${patternCount.toLocaleString('en-US')} declared pages name ${canonical ?? 'the same URL'} as their canonical${
        examples.length > 0 ? `, e.g. ${examples.slice(0, 2).join(', ')}` : ''
      }`,
    );
  }
  const occurrences = whole(evidence.occurrences);
  if (occurrences !== null && occurrences > 1) lines.push(`Declared ${occurrences} times in the sitemaps`);
  const depth = whole(evidence.depth);
  if (depth !== null) lines.push(`Found at crawl depth ${depth}`);
  return lines.filter((line): line is string => line !== null);
}

// ── Sanity warnings ──────────────────────────────────────────────────────────────────────────────

const SANITY_TITLES: Record<string, string> = {
  // Raised above PRUNE_SHARE_LIMIT (20 %), so "most" would often be untrue.
  prune_share_high: 'A large share of the sitemap would be pruned',
  crawl_older_than_lastmod: 'The crawl is older than the sitemap',
  hosts_not_crawled: 'Some sitemap hosts were not crawled',
  no_overlap: 'The sitemap and the crawl do not overlap',
  crawl_mismatch: 'The crawl does not match the sitemap',
  canonical_pattern: 'Many pages share one canonical',
};

/** Audit warnings that question the reconciliation itself; the summary shows them first. */
export function isSanityWarning(warning: { code: string }): boolean {
  return Object.hasOwn(SANITY_TITLES, warning.code);
}

export function sanityWarningTitle(code: string): string {
  return SANITY_TITLES[code] ?? 'Check this before approving';
}

// ── URL state ────────────────────────────────────────────────────────────────────────────────────

export const PAGE_SIZE = 100;

/** What each sort shows first (rows without the value come last in every sort). */
export const SORT_LABELS: Record<FindingSort, string> = {
  id: 'Default order',
  url: 'URL, A to Z',
  '-url': 'URL, Z to A',
  lastmod: 'Last modified, oldest first',
  '-lastmod': 'Last modified, newest first',
  status: 'Status, lowest first',
  '-status': 'Status, highest first',
  depth: 'Crawl depth, shallowest first',
  '-depth': 'Crawl depth, deepest first',
  inlinks: 'Inlinks, fewest first',
  '-inlinks': 'Inlinks, most first',
  reason: 'Reason, A to Z',
  '-reason': 'Reason, Z to A',
  decision: 'Decision, A to Z',
  '-decision': 'Decision, Z to A',
};

/** What the findings view shows; every field maps to one search param. */
export interface FindingView extends TFindingFilter {
  sort: FindingSort;
  cursor?: string;
}

type ParamSource = URLSearchParams | { get(name: string): string | null };

function param(params: ParamSource, name: string, max: number): string | undefined {
  const value = params.get(name)?.trim();
  return value && value.length <= max ? value : undefined;
}

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return values.find((candidate) => candidate === value);
}

/** Reads the view from search params; anything invalid falls back to the default instead of failing. */
export function findingQueryFromSearchParams(
  params: ParamSource,
  fallbackList: FindingList = 'prune',
): FindingView {
  const reason = param(params, 'reason', 64);
  const file = Number(param(params, 'file', 10));
  return {
    list: oneOf(LISTS, param(params, 'list', 10)) ?? fallbackList,
    reason: reason && /^[a-z0-9_]+$/.test(reason) ? reason : undefined,
    decision: oneOf(DECISIONS, param(params, 'decision', 10)),
    q: param(params, 'q', 500),
    host: param(params, 'host', 255),
    pathPrefix: param(params, 'pathPrefix', 1000),
    file: Number.isSafeInteger(file) && file > 0 ? file : undefined,
    signal: oneOf(SIGNALS, param(params, 'signal', 40)),
    verdict: oneOf(VERDICT_FILTERS, param(params, 'verdict', 20)),
    gsc: oneOf(GSC_FILTERS, param(params, 'gsc', 30)),
    gscMatch: oneOf(GSC_MATCHES, param(params, 'gscMatch', 20)),
    sort: oneOf(SORTS, param(params, 'sort', 10)) ?? 'id',
    cursor: param(params, 'cursor', 2000),
  };
}

/** The view as search params, leaving out empty filters and the default sort (stable, short links). */
export function toSearchParams(view: FindingView): URLSearchParams {
  const params = new URLSearchParams({ list: view.list });
  const optional: [string, string | undefined][] = [
    ['reason', view.reason],
    ['decision', view.decision],
    ['q', view.q],
    ['host', view.host],
    ['pathPrefix', view.pathPrefix],
    ['file', view.file === undefined ? undefined : String(view.file)],
    ['signal', view.signal],
    ['verdict', view.verdict],
    ['gsc', view.gsc],
    ['gscMatch', view.gscMatch],
    ['sort', view.sort === 'id' ? undefined : view.sort],
    ['cursor', view.cursor],
  ];
  for (const [name, value] of optional) if (value) params.set(name, value);
  return params;
}

/** The filter part of a view, as the decisions endpoint takes it for "all rows matching". */
export function filterOf(view: FindingView): TFindingFilter {
  const filter: TFindingFilter = { list: view.list };
  if (view.reason) filter.reason = view.reason;
  if (view.decision) filter.decision = view.decision;
  if (view.q) filter.q = view.q;
  if (view.host) filter.host = view.host;
  if (view.pathPrefix) filter.pathPrefix = view.pathPrefix;
  if (view.file !== undefined) filter.file = view.file;
  if (view.signal) filter.signal = view.signal;
  if (view.verdict) filter.verdict = view.verdict;
  if (view.gsc) filter.gsc = view.gsc;
  if (view.gscMatch) filter.gscMatch = view.gscMatch;
  return filter;
}

export type ExportDecision = Decision | 'all';
export type ExportFormat = 'csv' | 'jsonl';

/** The export of a list (or of a filter's rows: `list` may be a whole filter; its own decision is
 * replaced by `decision`). `bom` adds the byte order mark Excel needs to read UTF-8. */
export function exportHref(
  auditId: string,
  list: FindingList | TFindingFilter,
  decision: ExportDecision,
  format: ExportFormat = 'csv',
  { bom = false } = {},
): string {
  const { decision: _filterDecision, ...filter } = typeof list === 'string' ? { list } : list;
  const params = filterParams(filter);
  params.set('decision', decision);
  params.set('format', format);
  if (bom && format === 'csv') params.set('bom', '1');
  return `/api/v1/audits/${encodeURIComponent(auditId)}/export?${params}`;
}
