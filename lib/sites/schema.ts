// Shapes of the monitoring API: sites, their runs, change events, diffs between two audits,
// schedules and webhooks. Isomorphic: route handlers, the worker and the UI share them.
import { z } from 'zod';
import type { AuditStatus } from '@/lib/audits/schema';
import { zText } from '@/lib/core/text';

export {
  siteSettingsOf,
  type TSiteSettings,
  UNREACHED_CONFIRMED,
  ZSiteSettings,
} from '@/lib/review/approval/schema';

import { type TSiteSettings, ZSiteSettings } from '@/lib/review/approval/schema';

/** `PATCH /api/v1/sites/{id}`. */
export const ZSitePatch = z
  .object({
    name: zText().trim().min(1).max(200).optional(),
    settings: ZSiteSettings.partial().strict().optional(),
  })
  .strict();
export type TSitePatch = z.infer<typeof ZSitePatch>;

export const RUN_TRIGGERS = ['manual', 'rerun', 'schedule'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** One run (audit) of a site, with the figures its trends are drawn from. */
export interface SiteRunDto {
  id: string;
  name: string;
  status: AuditStatus;
  /** Succeeded with every file read: the only runs that make change events. */
  complete: boolean;
  trigger: RunTrigger;
  rerunOf: string | null;
  /** The previous complete run whose crawl this run read again (same bytes or crawl date): its unreached
   * rows were not confirmed across two crawls. Null otherwise. */
  crawlRepeatOf: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Distinct declared URLs (`sitemap.uniqueUrls`). */
  declaredUrls: number;
  /** Sitemap files answered 304 and reused. */
  reusedFiles: number;
  /** Per list (prune, add, held): its total and its count per reason; null before reconciliation. */
  findings: { prune: ListCounts; add: ListCounts; held: ListCounts } | null;
  /** Search Console's submitted-but-not-indexed share in percent (0–100) where an import exists. */
  gapPercent: number | null;
  /** The rot rate (declared URLs ending in a 4xx) of the run's latest finished spot-check, in percent
   * (0–100), and how many rows it was taken over; null without one. */
  spotCheck: { rotPercent: number | null; checked: number } | null;
  /** Change events this run wrote (zeros for runs that wrote none). */
  changes: ChangeCounts;
}

export interface ListCounts {
  total: number;
  byReason: Record<string, number>;
}

export const CHANGE_TYPES = [
  'url_added',
  'url_lastmod_changed',
  'url_removed_pending',
  'url_removed_confirmed',
  'url_moved',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangeCounts = Record<ChangeType, number>;

export interface SiteDto {
  id: string;
  host: string;
  name: string;
  settings: TSiteSettings;
  createdAt: string;
  /** The complete run whose URLs are the site's current state (the baseline of the next run's events). */
  lastCompleteAuditId: string | null;
  runCount: number;
  /** A queued or running audit of the site (one at a time for schedules and Run again). */
  activeRun: { id: string; status: AuditStatus } | null;
  /** The newest run. */
  latestRun: SiteRunDto | null;
  schedules: number;
  webhooks: number;
}

/** `GET /api/v1/sites/{id}`: the site and its runs, newest first (at most 100: the trend's points). */
export interface SiteDetailDto extends SiteDto {
  runs: SiteRunDto[];
}

export interface SitePage {
  items: SiteDto[];
  total: number;
  nextCursor: string | null;
}

export const ZSiteListQuery = z
  .object({
    q: zText().trim().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    cursor: zText().max(200).optional(),
  })
  .strict();
export type TSiteListQuery = z.infer<typeof ZSiteListQuery>;

/** `POST /api/v1/sites/{id}/runs` as JSON (multipart adds a `crawl` file replacing the crawl export). */
export const ZSiteRunInput = z
  .object({
    /** The audit whose sources to repeat; the site's newest audit when absent. */
    fromAuditId: z.uuid().optional(),
    name: zText().trim().max(200).optional(),
  })
  .strict();
export type TSiteRunInput = z.infer<typeof ZSiteRunInput>;

/** The answer to a run request: 202 with the new audit. */
export interface CreatedSiteRunDto {
  id: string;
  status: 'queued';
  siteId: string;
  rerunOf: string;
}

/** One change event between two consecutive complete runs. */
export interface SiteChangeDto {
  id: string;
  type: ChangeType;
  url: string;
  /** url_moved: the added URL the run's crawl redirects `url` to; null for the other types. */
  target: string | null;
  previousLastmod: string | null;
  currentLastmod: string | null;
  auditId: string | null;
  previousAuditId: string | null;
  createdAt: string;
}

/** `GET /api/v1/sites/{id}/changes?since=&type=&auditId=&limit=&cursor=`, newest first. */
export const ZChangeQuery = z
  .object({
    since: z.iso.datetime({ offset: true }).optional(),
    type: z.enum(CHANGE_TYPES).optional(),
    auditId: z.uuid().optional(),
    q: zText().trim().max(2048).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z
      .string()
      .regex(/^\d{1,19}$/, 'must be a change id')
      .optional(),
  })
  .strict();
export type TChangeQuery = z.infer<typeof ZChangeQuery>;

export interface SiteChangePage {
  items: SiteChangeDto[];
  /** Counts per type under the same since/auditId/q filter (all types). */
  counts: ChangeCounts;
  nextCursor: string | null;
}

export const DIFF_TYPES = [
  'url_added',
  'url_removed',
  'url_lastmod_changed',
  'new_problem',
  'fixed_problem',
  'reason_changed',
  'moved',
] as const;
export type DiffType = (typeof DIFF_TYPES)[number];

/** One row of a diff between two audits of a site (`from` → `to`). */
export interface AuditDiffItem {
  type: DiffType;
  url: string;
  /** moved: the added URL the removed one now redirects to. */
  target: string | null;
  /** new/fixed/reason_changed: the finding's list and reason on each side (null: not on a list). */
  fromList: string | null;
  fromReason: string | null;
  toList: string | null;
  toReason: string | null;
  previousLastmod: string | null;
  currentLastmod: string | null;
}

/** `GET /api/v1/audits/{a}/diff/{b}?type=&limit=&cursor=`. */
export const ZDiffQuery = z
  .object({
    type: z.enum(DIFF_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: zText().max(4096).optional(),
  })
  .strict();
export type TDiffQuery = z.infer<typeof ZDiffQuery>;

export interface AuditDiffDto {
  from: { id: string; name: string; createdAt: string; finishedAt: string | null };
  to: { id: string; name: string; createdAt: string; finishedAt: string | null };
  counts: Record<DiffType, number>;
  items: AuditDiffItem[];
  nextCursor: string | null;
}

export const SCHEDULE_CADENCES = ['daily', 'weekly', 'cron'] as const;

/** `POST /api/v1/sites/{id}/schedules`. daily: every day at `at` (HH:MM); weekly: on `weekday` (0 = Sunday)
 * at `at`; cron: a five-field cron expression. Times are in `timezone` (an IANA name, UTC by default). */
export const ZScheduleInput = z
  .object({
    cadence: z.enum(SCHEDULE_CADENCES),
    at: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM')
      .optional(),
    weekday: z.number().int().min(0).max(6).optional(),
    cron: zText().trim().max(200).optional(),
    timezone: zText().trim().max(100).optional(),
    fromAuditId: z.uuid().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type TScheduleInput = z.infer<typeof ZScheduleInput>;

/** `PATCH /api/v1/sites/{id}/schedules/{scheduleId}`. */
export const ZSchedulePatch = z.object({ enabled: z.boolean() }).strict();

export interface ScheduleDto {
  id: number;
  siteId: string;
  cadence: (typeof SCHEDULE_CADENCES)[number];
  /** The cron expression in force (daily and weekly are written as one). */
  cron: string;
  timezone: string;
  enabled: boolean;
  fromAuditId: string | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastAuditId: string | null;
  /** Why the last due time started no run, e.g. a run of the site was still going. */
  lastSkip: string | null;
  createdBy: string;
  createdAt: string;
}

/** `POST /api/v1/sites/{id}/webhooks`. */
export const ZWebhookInput = z
  .object({
    url: zText().trim().min(1).max(2048),
    secret: zText().min(16, 'must be at least 16 characters').max(256),
  })
  .strict();
export type TWebhookInput = z.infer<typeof ZWebhookInput>;

/** A webhook as the API shows it: never its secret. */
export interface WebhookDto {
  id: number;
  siteId: string;
  url: string;
  createdBy: string;
  createdAt: string;
  /** `paused` after WEBHOOK_PAUSE_AFTER_FAILURES consecutive failed attempts: new deliveries are recorded
   * and held, not sent, until resumed (`POST …/webhooks/{id}/resume`). */
  state: 'active' | 'paused';
  pausedAt: string | null;
  /** Why it was paused: the count and the last attempt's error. */
  pausedReason: string | null;
  /** Failed attempts since the last 2xx. */
  consecutiveFailures: number;
  /** Deliveries not yet delivered nor given up (at most WEBHOOK_MAX_PENDING). */
  pendingDeliveries: number;
  lastDelivery: { status: DeliveryStatus; at: string } | null;
}

/** `dropped`: never sent, because more than WEBHOOK_MAX_PENDING deliveries were pending for its webhook. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryDto {
  id: string;
  auditId: string | null;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  attemptLog: { at: string; status: number | null; error: string | null; ms: number }[];
}

/** `GET /api/v1/sites/{id}/webhooks/{webhookId}/deliveries?limit=&cursor=`, newest first. */
export interface DeliveryPage {
  items: DeliveryDto[];
  nextCursor: string | null;
}

/** The body of `run.completed` (signed:
 * `X-Sitemap-Audit-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`). */
export interface RunCompletedPayload {
  event: 'run.completed';
  site: { id: string; host: string; name: string };
  run: {
    id: string;
    name: string;
    status: AuditStatus;
    complete: boolean;
    trigger: RunTrigger;
    createdAt: string;
    finishedAt: string | null;
    declaredUrls: number;
    reusedFiles: number;
    prune: number | null;
    add: number | null;
    held: number | null;
    url: string;
  };
  changes: ChangeCounts;
  sentAt: string;
}
