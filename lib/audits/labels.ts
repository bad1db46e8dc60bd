// Human labels and badge tones for audit and file statuses, sitemap kinds and crawl formats (run phases
// are labelled in lib/runs/phases.ts),
// and which audit statuses are still in progress (the UI polls while they are).
import type { AuditStatus, SitemapFileDto } from './schema';

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const STATUS_LABELS: Record<AuditStatus | SitemapFileDto['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  partial: 'Partial',
  failed: 'Failed',
  cancelled: 'Cancelled',
  pending: 'Pending',
  ok: 'OK',
  skipped: 'Skipped',
};

const STATUS_TONES: Record<AuditStatus | SitemapFileDto['status'], Tone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'success',
  partial: 'warning',
  failed: 'danger',
  // Someone stopped it on purpose: not an error, and grey, so it is never taken for a Partial (amber).
  cancelled: 'neutral',
  pending: 'neutral',
  ok: 'success',
  skipped: 'warning',
};

type KnownStatus = keyof typeof STATUS_LABELS;

function isKnownStatus(status: string): status is KnownStatus {
  return Object.hasOwn(STATUS_LABELS, status);
}

/** Human label for an audit or sitemap-file status; unknown values are shown capitalised. An audit that
 * succeeded with a prominent warning (PROMINENT_WARNINGS) says so. */
export function statusLabel(status: string, warned = false): string {
  if (status === 'succeeded' && warned) return 'Succeeded with warnings';
  if (isKnownStatus(status)) return STATUS_LABELS[status];
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown';
}

export function statusTone(status: string, warned = false): Tone {
  if (status === 'succeeded' && warned) return 'warning';
  return isKnownStatus(status) ? STATUS_TONES[status] : 'neutral';
}

export function isActiveStatus(status: AuditStatus): boolean {
  return status === 'queued' || status === 'running';
}

const KIND_LABELS: Record<string, string> = {
  robots: 'robots.txt',
  index: 'Sitemap index',
  urlset: 'URL set',
  text: 'Text list',
  rss: 'RSS feed',
  atom: 'Atom feed',
};

function kindLabel(kind: string | null): string {
  if (!kind) return 'Unknown type';
  return KIND_LABELS[kind] ?? kind;
}

/** Codes of a file its audit never finished reading: it ended first (lib/audits/mutations.ts). */
const NOT_READ_CODES = new Set(['cancelled', 'interrupted']);

/** A file its audit stopped before reading it (cancelled or failed meanwhile): not one of the files read. */
export function isNotRead(file: Pick<SitemapFileDto, 'error'>): boolean {
  return file.error !== null && NOT_READ_CODES.has(file.error.code);
}

/** A file's kind as the tree shows it: a file not read has none to show, and says so. */
export function fileKindLabel(file: Pick<SitemapFileDto, 'kind' | 'status' | 'error'>): string {
  if (file.kind) return kindLabel(file.kind);
  if (file.status === 'pending') return 'Not read yet';
  return isNotRead(file) ? 'Not read' : 'Unknown type';
}

const CRAWL_FORMAT_LABELS: Record<string, string> = {
  jsonl: 'JSON Lines',
  'screaming-frog': 'Screaming Frog CSV',
  csv: 'CSV (mapped columns)',
};

export function crawlFormatLabel(format: string | null): string {
  if (!format) return 'Not detected';
  return CRAWL_FORMAT_LABELS[format] ?? format;
}

/** What to call a sitemap file: its URL, else its upload name, else its id. */
export function fileLabel(file: Pick<SitemapFileDto, 'id' | 'url' | 'uploadName'>): string {
  return file.url ?? file.uploadName ?? `File #${file.id}`;
}
