// The corrected sitemap set of an audit: its before/after summary (counted, nothing written) and the
// zip of its files, sitemap-index.xml and summary.json, streamed as it is written.
import 'server-only';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { AppError } from '@/lib/errors';
import { reconciledAudit } from '@/lib/findings/data';
import { type SetCounts, setCounts, siteOrigin, streamSetRows } from './data';
import { sectionStem } from './naming';
import type { SitemapSetSummaryDto, TSitemapSetQuery } from './schema';
import { indexXml, type SetFile, writeSitemapSet } from './writer';

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

function summaryOf(
  counts: SetCounts,
  stems: Map<string, SectionTally>,
  base: string,
  query: TSitemapSetQuery,
): SitemapSetSummaryDto {
  const sections = [...stems.values()].sort((a, b) => b.urls - a.urls || (a.name < b.name ? -1 : 1));
  const urls = sections.reduce((sum, s) => sum + s.urls, 0);
  return {
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
    options: { gzip: query.gzip, maxUrls: query.maxUrls, base },
  };
}

/** What the set holds before and after, per section, without building it (409 before the reconcile). */
export async function sitemapSetSummary(
  auditId: string,
  query: TSitemapSetQuery,
): Promise<SitemapSetSummaryDto> {
  await reconciledAudit(auditId);
  const [counts, base] = await Promise.all([setCounts(auditId, true), baseOf(auditId, query)]);
  const stems = new Map<string, SectionTally>();
  for (const s of counts.sections) {
    tally(stems, sectionStem(s.section), s.urls, Math.ceil(s.urls / query.maxUrls));
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
  // The counts without the sections: those come from the files as written (no second sort of the set).
  const [counts, base] = await Promise.all([setCounts(auditId, false), baseOf(auditId, query)]);
  const zip = new yazl.ZipFile();
  const abort = new AbortController();
  const output = zip.outputStream as Readable;
  output.once('close', () => abort.abort(new Error('the zip was abandoned')));
  const build = async () => {
    const files: SetFile[] = await writeSitemapSet(
      streamSetRows(auditId),
      { maxUrls: query.maxUrls, gzip: query.gzip },
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
