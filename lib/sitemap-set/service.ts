// The corrected sitemap set of an audit: its before/after summary (counted, nothing written) and the
// zip of its files, sitemap-index.xml and summary.json, streamed as it is written.
import 'server-only';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { AppError } from '@/lib/core/errors';
import { reconciledAudit } from '@/lib/review/data';
import {
  approvedAdds,
  inputFileCounts,
  inputFiles,
  removedByReason,
  replacedLocs,
  type SetCounts,
  setCounts,
  siteOrigin,
  streamAddedRows,
  streamInputRows,
  streamSetRows,
} from './data';
import { describePlan, type InputPlan, type PlanOptions, planInputLayout } from './input-plan';
import { writeInputLayout } from './input-writer';
import { sectionStem } from './naming';
import {
  DEFAULT_MAX_URLS,
  MAX_URLS_LIMIT,
  type SetWarning,
  type SitemapSetSummaryDto,
  type TSitemapSetQuery,
} from './schema';
import { indexXml, MAX_FILE_BYTES, type SetFile, writeSitemapSet } from './writer';

/** Sections listed by name in the summary; the rest are counted. */
const LISTED_SECTIONS = 200;

async function baseOf(auditId: string, query: TSitemapSetQuery): Promise<string> {
  if (query.base) return query.base;
  const origin = await siteOrigin(auditId);
  if (!origin) {
    throw new AppError('conflict', 'This audit declares no URL, so there is no site to build a sitemap for');
  }
  return `${origin.toLowerCase()}/`;
}

interface SectionTally {
  name: string;
  urls: number;
  files: number;
}

/** Adds a section's URLs and files to its stem's tally: segments that make the same stem share its
 * files' numbering (naming.ts), so the summary shows them as one section. */
function tally(stems: Map<string, SectionTally>, name: string, urls: number, files: number): void {
  const seen = stems.get(name) ?? { name, urls: 0, files: 0 };
  seen.urls += urls;
  seen.files += files;
  stems.set(name, seen);
}

/** URLs per file: asked, or 25,000 (sections) / the protocol's 50,000 (input: nothing re-split). */
function maxUrlsOf(query: TSitemapSetQuery): number {
  return query.maxUrls ?? (query.layout === 'sections' ? DEFAULT_MAX_URLS : MAX_URLS_LIMIT);
}

function optionsOf(query: TSitemapSetQuery, base: string): SitemapSetSummaryDto['options'] {
  return {
    layout: query.layout,
    gzip: query.layout === 'sections' && query.gzip,
    maxUrls: maxUrlsOf(query),
    base,
  };
}

function summaryOf(
  counts: SetCounts,
  stems: Map<string, SectionTally>,
  base: string,
  query: TSitemapSetQuery,
): SitemapSetSummaryDto {
  const sections = [...stems.values()].sort((a, b) => b.urls - a.urls || (a.name < b.name ? -1 : 1));
  const urls = sections.reduce((sum, s) => sum + s.urls, 0);
  return {
    layout: 'sections',
    files: [],
    warnings: [],
    before: { entries: counts.entries, files: counts.files },
    removed: counts.removed,
    replaced: counts.replaced,
    added: counts.added,
    duplicates: counts.candidates - urls,
    after: {
      urls,
      files: sections.reduce((sum, s) => sum + s.files, 0),
      sections: sections.slice(0, LISTED_SECTIONS),
      moreSections: Math.max(0, sections.length - LISTED_SECTIONS),
    },
    options: optionsOf(query, base),
  };
}

/** What the set holds before and after, per section, without building it (409 before the reconcile). */
export async function sitemapSetSummary(
  auditId: string,
  query: TSitemapSetQuery,
): Promise<SitemapSetSummaryDto> {
  await reconciledAudit(auditId);
  if (query.layout === 'input') {
    const input = await inputLayout(auditId, query);
    return inputSummary(input, describePlan(input.plan, input.options));
  }
  const [counts, base] = await Promise.all([setCounts(auditId, true), baseOf(auditId, query)]);
  const stems = new Map<string, SectionTally>();
  for (const s of counts.sections) {
    tally(stems, sectionStem(s.section), s.urls, Math.ceil(s.urls / maxUrlsOf(query)));
  }
  return summaryOf(counts, stems, base, query);
}

/** The zip's file name for an audit. */
export function zipFileName(auditName: string): string {
  const stem = sectionStem(auditName.replaceAll('/', '-')).replace(/^pages$|^section$/, 'audit');
  return `${stem}-sitemap-set.zip`;
}

/**
 * The zip of the set, written as the client reads it: each sitemap file is a zip entry fed from the
 * rows' cursor (gzipped files are stored, plain XML deflated), then the index and summary.json with the
 * files as written. The client going away aborts the build and releases the cursor.
 */
export async function sitemapSetZip(
  auditId: string,
  query: TSitemapSetQuery,
): Promise<{ body: ReadableStream<Uint8Array>; name: string }> {
  const audit = await reconciledAudit(auditId);
  if (query.layout === 'input')
    return { body: await inputZip(auditId, query), name: zipFileName(audit.name) };
  // The counts without the sections: those come from the files as written (no second sort of the set).
  const [counts, base] = await Promise.all([setCounts(auditId, false), baseOf(auditId, query)]);
  const zip = new yazl.ZipFile();
  const abort = new AbortController();
  const output = zip.outputStream as Readable;
  output.once('close', () => abort.abort(new Error('the zip was abandoned')));
  const build = async () => {
    const files: SetFile[] = await writeSitemapSet(
      streamSetRows(auditId),
      { maxUrls: maxUrlsOf(query), gzip: query.gzip },
      (name, body, isCompressed) => zip.addReadStream(body, name, { compress: !isCompressed }),
      abort.signal,
    );
    zip.addBuffer(Buffer.from(indexXml(files, base)), 'sitemap-index.xml');
    const stems = new Map<string, SectionTally>();
    for (const file of files) tally(stems, file.stem, file.urls, 1);
    const written = files.map(({ name, urls, bytes }) => ({ name, urls, bytes }));
    const json = { ...summaryOf(counts, stems, base, query), files: written };
    zip.addBuffer(Buffer.from(`${JSON.stringify(json, null, 2)}\n`), 'summary.json');
    zip.end();
  };
  build().catch((error: unknown) => {
    if (!abort.signal.aborted) console.error(`[sitemap-set] audit ${auditId}: the build failed`, error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return {
    body: Readable.toWeb(output) as ReadableStream<Uint8Array>,
    name: zipFileName(audit.name),
  };
}

// ── The input layout ──

interface InputLayout {
  plan: InputPlan;
  options: PlanOptions;
  query: TSitemapSetQuery;
  removed: Record<string, number>;
  /** Files read before extensions were kept at ingest: their extensions cannot be written back. */
  readBefore: string[];
}

async function inputLayout(auditId: string, query: TSitemapSetQuery): Promise<InputLayout> {
  const [rows, counts, removed, added, origin] = await Promise.all([
    inputFiles(auditId),
    inputFileCounts(auditId),
    removedByReason(auditId),
    approvedAdds(auditId),
    siteOrigin(auditId),
  ]);
  const options: PlanOptions = {
    maxUrls: maxUrlsOf(query),
    maxBytes: MAX_FILE_BYTES,
    added,
    base: query.base ?? null,
    siteBase: origin ? `${origin.toLowerCase()}/` : '',
  };
  const plan = planInputLayout(rows, counts, options);
  const readBefore = rows
    .filter((r) => r.status === 'ok' && (r.kind === 'urlset' || r.kind === 'index') && r.rootTag === null)
    .map((r) => r.url ?? r.uploadName ?? `file ${r.id}`);
  return { plan, options, query, removed, readBefore };
}

function inputSummary(input: InputLayout, described: ReturnType<typeof describePlan>): SitemapSetSummaryDto {
  const { plan, options, query } = input;
  const warnings: SetWarning[] = [...described.warnings];
  if (input.readBefore.length > 0) {
    warnings.push({
      code: 'read_before_markup',
      message: `${input.readBefore.length === 1 ? 'A file was' : `${input.readBefore.length} files were`} read before the app kept each URL's extensions and namespaces: hreflang, image, video and news elements would be lost. Run the audit again before deploying this set.`,
      files: input.readBefore,
    });
  }
  const written = described.files.filter((f) => f.status !== 'kept_as_is');
  const sitemaps = written.filter((f) => f.kind !== 'index');
  return {
    layout: 'input',
    files: described.files,
    warnings,
    before: {
      entries: plan.files.reduce(
        (n, f) => n + (f.kind === 'urlset' || f.kind === 'text' ? f.counts.entries : 0),
        0,
      ),
      files: plan.files.filter((f) => f.kind === 'urlset' || f.kind === 'text').length,
    },
    removed: input.removed,
    replaced: sitemaps.reduce((n, f) => n + f.replaced, 0),
    added: options.added,
    duplicates: 0,
    after: {
      urls: sitemaps.reduce((n, f) => n + f.urls, 0),
      files: sitemaps.reduce((n, f) => n + f.parts.length, 0),
      sections: [],
      moreSections: 0,
    },
    options: optionsOf(query, options.base ?? options.siteBase),
  };
}

/** The input layout's zip: each file under its name, then summary.json with the files as written. */
async function inputZip(auditId: string, query: TSitemapSetQuery): Promise<ReadableStream<Uint8Array>> {
  const input = await inputLayout(auditId, query);
  const replaced = await replacedLocs(auditId);
  const zip = new yazl.ZipFile();
  const abort = new AbortController();
  const output = zip.outputStream as Readable;
  output.once('close', () => abort.abort(new Error('the zip was abandoned')));
  const build = async () => {
    const written = await writeInputLayout(
      input.plan,
      streamInputRows(auditId),
      streamAddedRows(auditId),
      replaced,
      { ...input.options, signal: abort.signal },
      (name, body, isCompressed) => zip.addReadStream(body, name, { compress: !isCompressed }),
    );
    const summary = inputSummary(input, describePlan(input.plan, input.options, written));
    const json = {
      ...summary,
      written: [...written.values()].flat().map(({ name, urls, bytes }) => ({ name, urls, bytes })),
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(json, null, 2)}\n`), 'summary.json');
    zip.end();
  };
  build().catch((error: unknown) => {
    if (!abort.signal.aborted) console.error(`[sitemap-set] audit ${auditId}: the build failed`, error);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
