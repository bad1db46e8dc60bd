// The settings that guard approvals: an audit's (a confirming spot-check before pruning an unreached row)
// and its site's (unreached in two crawls in a row). The audit and site pages edit them; the review's
// decision rule reads them. Isomorphic.
import { z } from 'zod';

/** Settings an admin changes after creation (stored in `audits.settings`; absent keys take the default). */
export const ZAuditSettings = z
  .object({
    /** Approving an `unreached_by_crawl` prune row needs a confirming verdict (confirmed or dead) from the
     * row's latest finished spot-check (lib/findings/evidence/live.ts). */
    requireSpotCheckForUnreached: z.boolean().default(false),
  })
  .strict();
export type TAuditSettings = z.infer<typeof ZAuditSettings>;

/** What a stored settings value means: anything unreadable is the defaults (never a failed audit page). */
export function settingsOf(value: unknown): TAuditSettings {
  const parsed = ZAuditSettings.safeParse(value ?? {});
  return parsed.success ? parsed.data : ZAuditSettings.parse({});
}

/** Settings of a site an admin changes (stored in `sites.settings`; absent keys take the default). */
export const ZSiteSettings = z
  .object({
    /** Approving an `unreached_by_crawl` prune row needs it "confirmed across two crawls": the previous
     * complete audit of the site had it unreached too (the finding's `unreached_confirmed` signal). */
    requireConfirmedUnreached: z.boolean().default(false),
  })
  .strict();
export type TSiteSettings = z.infer<typeof ZSiteSettings>;

/** What a stored settings value means: anything unreadable is the defaults. */
export function siteSettingsOf(value: unknown): TSiteSettings {
  const parsed = ZSiteSettings.safeParse(value ?? {});
  return parsed.success ? parsed.data : ZSiteSettings.parse({});
}

/** The finding signal of an unreached row the previous complete audit of the site had unreached too. */
export const UNREACHED_CONFIRMED = 'unreached_confirmed';
