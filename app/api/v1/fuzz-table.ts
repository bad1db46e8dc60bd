// The fuzz test's table (fuzz.int.test.ts): for every route under app/api/v1, valid values for each path
// parameter, each query parameter it reads and each JSON body field, from which the test sends one
// hostile value at a time. The test fails when a route is missing here, or reads a query parameter or a
// body field this table does not list, so a new route or parameter is fuzzed as soon as it exists.
import { generateKeyPairSync } from 'node:crypto';
import { ZAddCrawlJson, ZAuditPatch, ZCreateAuditJson } from '@/lib/audits/schema';
import {
  ZLogin,
  ZNewShare,
  ZNewToken,
  ZNewUser,
  ZPasswordChange,
  ZSetup,
  ZUserChange,
} from '@/lib/auth/schema';
import { ZDecisionRequest } from '@/lib/findings/schema';
import { ZGscCredentialsInput, ZGscInspectionRequest } from '@/lib/gsc/inspection-schema';
import { ZLintRequest } from '@/lib/hygiene/audit/schema';
import { encodeDiffCursor } from '@/lib/sites/diff/cursor';
import { ZScheduleInput, ZSchedulePatch, ZSitePatch, ZSiteRunInput, ZWebhookInput } from '@/lib/sites/schema';
import { ZSpotCheckRequest, ZSpotCheckRetry } from '@/lib/spot-check/schema';

/** Rows the test creates before fuzzing. */
export interface Fixtures {
  /** A reconciled audit with findings on hosts a.example and b.example. */
  auditId: string;
  /** The fixture audit's site (a.example). */
  siteId: string;
  /** A schedule (disabled) and a webhook of that site. */
  scheduleId: number;
  webhookId: number;
  /** An audit DELETE may remove. */
  spareAuditId: string;
  findingId: number;
  sitemapFileId: number;
  /** nextCursor of a one-row page, per sort. */
  cursors: Record<'id' | '-lastmod' | 'url' | 'status' | '-inlinks', string>;
  /** A user PATCH and DELETE may change, with a token and a share of the audit. */
  userId: string;
  tokenId: string;
  shareId: string;
  /** A spot-check run of the audit (queued; nothing runs it). */
  spotCheckRunId: string;
  /** A Search Console import of the audit (queued; nothing runs it). */
  gscImportId: string;
  /** A URL Inspection run of the audit (queued; nothing runs it), under the key fuzzGscKey. */
  gscInspectionRunId: string;
  loginEmail: string;
  password: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A zod object: its `shape` lists the fields the body may have. */
interface ObjectSchema {
  shape: Record<string, unknown>;
}

export interface BodySpec {
  /** The schema the handler parses the body with; every field of it must appear in some valid body. */
  schema: ObjectSchema;
  /** Bodies the handler accepts (fields are fuzzed one at a time in each). */
  valid: Record<string, unknown>[];
}

export interface MultipartSpec {
  fields: Record<string, string>;
  files: { field: string; name: string; content: string }[];
}

export interface RouteSpec {
  /** Valid path parameters (per method: DELETE gets rows it may remove). */
  params?: (method: Method) => Record<string, string>;
  /** Query strings GET accepts; together they name every parameter the route reads. */
  query?: Record<string, string>[];
  /** Every handler that takes a request body says what it takes; `null`: it reads none. */
  body?: Partial<Record<Method, BodySpec | null>>;
  /** Multipart bodies, for the handlers that take uploads. */
  multipart?: Partial<Record<Method, MultipartSpec>>;
}

const filterQuery = (fx: Fixtures) => ({
  list: 'prune',
  reason: 'unreached_by_crawl',
  decision: 'pending',
  q: 'item',
  host: 'a.example',
  pathPrefix: '/shop',
  file: String(fx.sitemapFileId),
  signal: 'multi_file',
  verdict: 'confirmed',
  gsc: 'http_404',
  gscMatch: 'agrees',
});

const audit = (fx: Fixtures) => () => ({ id: fx.auditId });

/** A throwaway service-account key (made per test run, never committed) for the credentials routes. */
export const fuzzGscKey = JSON.stringify({
  type: 'service_account',
  client_email: 'fuzz@fuzz-project.iam.gserviceaccount.com',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
});

export function routeTable(fx: Fixtures): Record<string, RouteSpec> {
  const filter = filterQuery(fx);
  const { decision: _decision, ...filterWithoutDecision } = filter;
  return {
    audits: {
      query: [{ limit: '10', cursor: fx.auditId, status: 'succeeded', q: 'Fuzz' }],
      body: {
        POST: {
          schema: ZCreateAuditJson,
          valid: [
            {
              name: 'Fuzz',
              sitemapUrls: ['https://example.com/sitemap.xml'],
              crawlUrl: 'https://example.com/crawl.csv',
              options: {
                normalization: 'lenient',
                crawlFormat: 'csv',
                columnMap: { url: 'Address', status: 'Status Code' },
                crawlTime: '2026-11-01T00:00:00Z',
                serverErrors: 'prune',
              },
            },
            {
              name: 'Fuzz crawl',
              sitemapUrls: ['https://example.com/sitemap.xml'],
              crawler: {
                mode: 'site',
                startUrl: 'https://example.com/',
                maxPages: 100,
                maxDepth: 3,
                concurrencyPerHost: 1,
                render: false,
              },
            },
          ],
        },
      },
      multipart: {
        POST: {
          fields: {
            name: 'Fuzz upload',
            sitemapUrl: 'https://example.com/sitemap.xml',
            crawlUrl: 'https://example.com/crawl.jsonl',
            options: '{"normalization":"exact"}',
          },
          files: [{ field: 'sitemap', name: 'sitemap.xml', content: '<urlset/>' }],
        },
      },
    },
    'audits/[id]': {
      params: (method) => ({ id: method === 'DELETE' ? fx.spareAuditId : fx.auditId }),
      body: {
        PATCH: { schema: ZAuditPatch, valid: [{ settings: { requireSpotCheckForUnreached: false } }] },
      },
    },
    'audits/[id]/cancel': { params: audit(fx), body: { POST: null } },
    // The fixture audit has its crawl: a valid body is answered 409 (one crawl per audit), never queued.
    'audits/[id]/crawl': {
      params: audit(fx),
      body: {
        POST: {
          schema: ZAddCrawlJson,
          valid: [
            {
              crawlUrl: 'https://files.a.example/internal_all.csv',
              options: { crawlFormat: 'csv', columnMap: { url: 'Address' }, serverErrors: 'hold' },
            },
          ],
        },
      },
    },
    'audits/[id]/decisions': {
      params: audit(fx),
      body: {
        POST: {
          schema: ZDecisionRequest,
          valid: [
            {
              decision: 'rejected',
              filter: { ...filter, file: fx.sitemapFileId },
              override: true,
              note: 'fuzz',
            },
            { decision: 'approved', ids: [fx.findingId], note: 'fuzz' },
          ],
        },
      },
    },
    'audits/[id]/decisions/preview': {
      params: audit(fx),
      query: [{ ...filterWithoutDecision, decision: 'approved', filterDecision: 'pending', override: '1' }],
    },
    'audits/[id]/export': {
      params: audit(fx),
      query: [
        { ...filter, decision: 'all', format: 'csv', bom: '1' },
        { list: 'add', decision: 'approved', format: 'jsonl', bom: '0' },
      ],
    },
    'audits/[id]/diff/[otherId]': {
      params: () => ({ id: fx.auditId, otherId: fx.auditId }),
      query: [
        {
          type: 'url_added',
          limit: '5',
          cursor: encodeDiffCursor({ type: 'url_added', key: 'https://a.example/' }),
        },
        { limit: '500' },
      ],
    },
    'audits/[id]/sitemap-set': {
      params: audit(fx),
      query: [
        { layout: 'sections', gzip: '0', maxUrls: '100', base: 'https://a.example/maps/' },
        { layout: 'input', maxUrls: '100' },
      ],
    },
    'audits/[id]/sitemap-set.zip': {
      params: audit(fx),
      query: [
        { layout: 'input', gzip: '1', maxUrls: '50000', base: 'https://a.example/' },
        { layout: 'sections', gzip: '1', maxUrls: '50000' },
      ],
    },
    'audits/[id]/findings': {
      params: audit(fx),
      query: Object.entries(fx.cursors).map(([sort, cursor]) => ({
        ...filter,
        reason: '',
        signal: '',
        file: '',
        sort,
        limit: '5',
        cursor,
      })),
    },
    'audits/[id]/findings/[findingId]': {
      params: () => ({ id: fx.auditId, findingId: String(fx.findingId) }),
    },
    'audits/[id]/findings/by-file': { params: audit(fx) },
    'audits/[id]/findings/reasons': { params: audit(fx), query: [filter] },
    'audits/[id]/gsc/cross-reference': { params: audit(fx) },
    'audits/[id]/gsc/sitemaps': { params: audit(fx) },
    'audits/[id]/gsc': {
      params: audit(fx),
      // Uploads only: a JSON body is refused as the wrong media type.
      body: { POST: null },
      multipart: {
        POST: { fields: {}, files: [{ field: 'files', name: 'Table.csv', content: 'URL,Last crawled\n' }] },
      },
    },
    'audits/[id]/gsc/imports': { params: audit(fx) },
    'audits/[id]/gsc/imports/[importId]': { params: () => ({ id: fx.auditId, importId: fx.gscImportId }) },
    'audits/[id]/gsc/credentials': {
      params: audit(fx),
      body: {
        PUT: { schema: ZGscCredentialsInput, valid: [{ property: 'sc-domain:a.example', key: fuzzGscKey }] },
      },
    },
    'audits/[id]/gsc/inspections': {
      params: audit(fx),
      body: { POST: { schema: ZGscInspectionRequest, valid: [{ sample: 5, seed: 7 }] } },
    },
    'audits/[id]/gsc/inspections/[runId]': {
      params: () => ({ id: fx.auditId, runId: fx.gscInspectionRunId }),
      query: [{ limit: '5', cursor: '1' }],
    },
    'audits/[id]/gsc/inspections/[runId]/cancel': {
      params: () => ({ id: fx.auditId, runId: fx.gscInspectionRunId }),
      body: { POST: null },
    },
    'audits/[id]/shares': {
      params: audit(fx),
      body: { POST: { schema: ZNewShare, valid: [{ expiresAt: '2099-01-01T00:00:00Z' }] } },
    },
    'audits/[id]/spot-checks': {
      params: audit(fx),
      body: {
        POST: {
          schema: ZSpotCheckRequest,
          valid: [
            { sample: 5, seed: 7, includeAdd: true, ignoreRobots: true },
            { ids: [fx.findingId] },
            { filter: { ...filter, file: fx.sitemapFileId } },
          ],
        },
      },
    },
    'audits/[id]/spot-checks/[runId]': {
      params: () => ({ id: fx.auditId, runId: fx.spotCheckRunId }),
      query: [{ limit: '5', cursor: '1' }],
    },
    'audits/[id]/spot-checks/[runId]/cancel': {
      params: () => ({ id: fx.auditId, runId: fx.spotCheckRunId }),
      body: { POST: null },
    },
    'audits/[id]/spot-checks/[runId]/compare/[otherRunId]': {
      params: () => ({ id: fx.auditId, runId: fx.spotCheckRunId, otherRunId: fx.spotCheckRunId }),
      query: [{ limit: '5', cursor: '1' }],
    },
    'audits/[id]/spot-checks/[runId]/retry': {
      params: () => ({ id: fx.auditId, runId: fx.spotCheckRunId }),
      // The fixture's run is queued, so a valid body is answered 409 (still running), never started.
      body: { POST: { schema: ZSpotCheckRetry, valid: [{ only: 'errors' }] } },
    },
    'audits/[id]/sitemaps': { params: audit(fx), query: [{ limit: '5', cursor: '1' }] },
    'audits/[id]/lint': {
      params: audit(fx),
      query: [{ limit: '5', offset: '1' }],
      // A valid body queues a lint of the fixture audit (nothing runs it; later ones answer 409).
      body: { POST: { schema: ZLintRequest, valid: [{ siteUrl: 'https://a.example/' }] } },
    },
    'auth/login': {
      body: {
        POST: { schema: ZLogin, valid: [{ email: fx.loginEmail, password: fx.password, next: '/audits' }] },
      },
    },
    'auth/logout': { body: { POST: null } },
    'auth/logout-all': { body: { POST: null } },
    'auth/me': {},
    'auth/password': {
      body: {
        POST: { schema: ZPasswordChange, valid: [{ current: fx.password, password: 'a new long password' }] },
      },
    },
    setup: {
      body: {
        POST: {
          schema: ZSetup,
          valid: [{ email: 'first@fuzz.example', name: 'First', password: 'a long enough password' }],
        },
      },
    },
    'shares/[id]': { params: () => ({ id: fx.shareId }) },
    sites: { query: [{ q: 'a.example', limit: '5', cursor: 'a' }] },
    'sites/[id]': {
      params: () => ({ id: fx.siteId }),
      body: {
        PATCH: { schema: ZSitePatch, valid: [{ name: 'A', settings: { requireConfirmedUnreached: false } }] },
      },
    },
    'sites/[id]/changes': {
      params: () => ({ id: fx.siteId }),
      query: [
        {
          since: '2026-01-01T00:00:00Z',
          type: 'url_added',
          auditId: fx.auditId,
          q: 'a.example',
          limit: '5',
          cursor: '100',
        },
      ],
    },
    'sites/[id]/schedules': {
      params: () => ({ id: fx.siteId }),
      // Disabled: the fuzz's schedules never start a run.
      body: {
        POST: {
          schema: ZScheduleInput,
          valid: [
            {
              cadence: 'weekly',
              at: '04:30',
              weekday: 2,
              timezone: 'Europe/Paris',
              fromAuditId: fx.auditId,
              enabled: false,
            },
            { cadence: 'cron', cron: '15 4 * * 1-5', enabled: false },
          ],
        },
      },
    },
    'sites/[id]/schedules/[scheduleId]': {
      params: () => ({ id: fx.siteId, scheduleId: String(fx.scheduleId) }),
      body: { PATCH: { schema: ZSchedulePatch, valid: [{ enabled: false }] } },
    },
    'sites/[id]/webhooks': {
      params: () => ({ id: fx.siteId }),
      body: {
        POST: {
          schema: ZWebhookInput,
          valid: [{ url: 'https://hooks.a.example/in', secret: 'a fuzz secret of length' }],
        },
      },
    },
    'sites/[id]/webhooks/[webhookId]': {
      params: () => ({ id: fx.siteId, webhookId: String(fx.webhookId) }),
    },
    'sites/[id]/webhooks/[webhookId]/resume': {
      params: () => ({ id: fx.siteId, webhookId: String(fx.webhookId) }),
      body: { POST: null },
    },
    'sites/[id]/webhooks/[webhookId]/deliveries': {
      params: () => ({ id: fx.siteId, webhookId: String(fx.webhookId) }),
      query: [{ limit: '5', cursor: '1' }],
    },
    'sites/[id]/runs': {
      params: () => ({ id: fx.siteId }),
      // The first valid body queues a run of the fixture audit (nothing runs it; later ones answer 409).
      body: { POST: { schema: ZSiteRunInput, valid: [{ fromAuditId: fx.auditId, name: 'Fuzz again' }] } },
    },
    tokens: { body: { POST: { schema: ZNewToken, valid: [{ name: 'fuzz' }] } } },
    'tokens/[id]': { params: () => ({ id: fx.tokenId }) },
    users: {
      body: {
        POST: {
          schema: ZNewUser,
          valid: [
            { email: 'new@fuzz.example', name: 'New', password: 'a long enough password', role: 'viewer' },
          ],
        },
      },
    },
    'users/[id]': {
      params: () => ({ id: fx.userId }),
      body: {
        PATCH: {
          schema: ZUserChange,
          valid: [
            { role: 'reviewer', disabled: false, password: 'a long enough password', revokeTokens: false },
          ],
        },
      },
    },
  };
}
