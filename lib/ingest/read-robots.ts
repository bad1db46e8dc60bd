// Turns an opened robots.txt into its file outcome and the Sitemap: URLs it declares. Queueing those
// sitemaps, and falling back to the usual locations when there are none, is the walker's job.
import { NetError } from '@/lib/net/types';
import { parseRobotsSitemaps } from '@/lib/sitemap/robots';
import { FetchBudgetError } from './fetch-budget';
import { emptyOutcome } from './file-outcome';
import type { OpenResult } from './open-source';
import type { FileOutcome } from './tree-types';

const ROBOTS_KEPT_BYTES = 500 * 1024;

/** `isSiteRoot`: the robots.txt was derived from a site root, so a 404 only means "look elsewhere". */
export async function readRobots(
  opened: OpenResult,
  robotsUrl: string,
  isSiteRoot: boolean,
): Promise<{ outcome: FileOutcome; sitemaps: string[] }> {
  let sitemaps: string[] = [];
  let outcome: FileOutcome;
  if (!opened.ok) {
    outcome = opened.outcome;
    outcome.kind = 'robots';
    if (isSiteRoot && outcome.httpStatus === 404) outcome.status = 'skipped';
  } else {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of opened.body) {
        size += chunk.length;
        if (size > 512 * 1024)
          throw new NetError('too_large', robotsUrl, `${robotsUrl} is larger than 512 KB`);
        chunks.push(Buffer.from(chunk));
      }
      const body = Buffer.concat(chunks);
      const parsed = parseRobotsSitemaps(body, opened.finalUrl ?? robotsUrl);
      sitemaps = parsed.sitemaps;
      outcome = {
        ...emptyOutcome('ok', null, 'robots'),
        warnings: parsed.notes,
        entries: sitemaps.length,
        // Kept for the lint's robots_disallowed; Google reads the first 500 KiB and ignores the rest (NUL,
        // which a text column refuses, means nothing in robots.txt).
        robotsTxt: body.subarray(0, ROBOTS_KEPT_BYTES).toString('utf8').replace(/\0/g, ''),
      };
    } catch (error) {
      if (!(error instanceof NetError || error instanceof FetchBudgetError)) throw error;
      outcome = emptyOutcome('failed', { code: error.code, message: error.message }, 'robots');
    }
    outcome.httpStatus = opened.httpStatus;
    outcome.finalUrl = opened.finalUrl;
    outcome.uncompressedBytes = size;
    outcome.compressedBytes = opened.wire();
  }
  return { outcome, sitemaps };
}
