// Search Console's gaps per sitemap file of one audit: the reads of lib/gsc/gaps/data.ts
// shaped by lib/gsc/gaps-shape.ts into what the API, the audit page, the shared report and the PDF show.
import { auditExists } from '@/lib/audits/data';
import { AppError } from '@/lib/core/errors';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import {
  gapCounts,
  gapFiles,
  hasSearchConsoleData,
  importsSignature,
  latestChart,
  latestSitemapReport,
  namedUrlCount,
} from './gaps/data';
import { buildPropertyTotals, buildSitemapGaps, type GscGapsDto } from './gaps-shape';

/** The audit's gap table and property totals; a 404 for an unknown audit. Without any import or
 * inspection the answer is empty (hasData false) and the big join is not run. */
export async function sitemapGaps(auditId: string): Promise<GscGapsDto> {
  // Read first: an import that ends while the rest is read makes the signature older, never newer, than
  // the rows, so the page at worst reads the gaps once more.
  const signature = await importsSignature(auditId);
  const hasData = await hasSearchConsoleData(auditId);
  if (!hasData) {
    if (!(await auditExists(auditId))) throw new AppError('not_found', 'No such audit');
    return {
      hasData: false,
      importsSignature: signature,
      sitemaps: [],
      property: null,
      sitemapReportOn: null,
    };
  }
  const files = await gapFiles(auditId);
  if (!files) throw new AppError('not_found', 'No such audit');
  const [counts, report, chart, named] = await Promise.all([
    gapCounts(auditId, files.keysDistinct),
    latestSitemapReport(auditId),
    latestChart(auditId),
    namedUrlCount(auditId),
  ]);
  const profile: NormalizationProfile = files.normalization === 'lenient' ? 'lenient' : 'exact';
  return {
    hasData: true,
    importsSignature: signature,
    sitemaps: buildSitemapGaps({ files: files.files, counts, profile, report }),
    property: buildPropertyTotals(chart, named),
    sitemapReportOn: report?.importedOn ?? null,
  };
}
