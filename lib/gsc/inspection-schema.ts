// What a client sends for URL Inspection (credentials, a run) and what the API answers. Isomorphic: zod
// schemas and DTO types only. A DTO never holds the service-account key.
import { z } from 'zod';
import { INT4_MAX } from '@/lib/core/text';
import type { RunStatus } from '@/lib/runs/phases';

/** The sample a run takes when the request names none. */
export const DEFAULT_INSPECTION_SAMPLE = 100;

/** PUT …/gsc/credentials: the property and the key file's JSON (as an object or as its text). */
export const ZGscCredentialsInput = z
  .object({
    property: z.string().min(1).max(2048),
    key: z.union([z.string().max(64 * 1024), z.record(z.string(), z.unknown())]),
  })
  .strict();
export type TGscCredentialsInput = z.infer<typeof ZGscCredentialsInput>;

/** POST …/gsc/inspections: `{ sample?, seed? }`; the sample is checked against the day's quota. */
export const ZGscInspectionRequest = z
  .object({
    sample: z.number().int().min(1).max(100_000).optional(),
    seed: z.number().int().min(0).max(INT4_MAX).optional(),
  })
  .strict();
export type TGscInspectionRequest = z.infer<typeof ZGscInspectionRequest>;

export interface GscCredentialsDto {
  property: string;
  clientEmail: string;
  createdAt: string;
  createdBy: string;
}

export interface GscInspectionSummary {
  inspected: number;
  indexed: number;
  notIndexed: number;
  errors: number;
  /** not-indexed URLs per bucket (lib/findings/evidence/gsc-reasons.ts) */
  byBucket: Record<string, number>;
}

export interface GscInspectionRunDto {
  id: string;
  auditId: string;
  status: RunStatus;
  phase: string;
  phaseLabel: string;
  progress: { done: number; total: number };
  property: string;
  request: { sample: number; seed: number };
  /** When a run waiting for quota goes on (the next Pacific midnight); null otherwise. */
  resumeAt: string | null;
  summary: GscInspectionSummary | null;
  errorMessage: string | null;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
  cancelledBy: string | null;
  /** Google's quota answer that stopped the calls (the last one), kept once the run goes on; null: none. */
  quotaStop: {
    status: number;
    code: string;
    message: string;
    /** Which quota Google said is spent: the property's day or its minute. */
    limit: 'day' | 'minute';
    at: string;
  } | null;
}

/** inspectionResult.indexStatusResult, as stored in gsc_inspections. */
export interface IndexStatus {
  verdict: string | null;
  coverageState: string | null;
  indexingState: string | null;
  pageFetchState: string | null;
  robotsTxtState: string | null;
  googleCanonical: string | null;
  userCanonical: string | null;
  lastCrawlTime: string | null;
  sitemaps: string[];
}

export interface GscInspectionItemDto extends IndexStatus {
  position: number;
  url: string;
  fileId: number | null;
  state: 'indexed' | 'not_indexed' | null;
  bucket: string | null;
  inspectedAt: string;
  error: { code: string; message: string } | null;
}

export interface GscInspectionRunPage extends GscInspectionRunDto {
  items: GscInspectionItemDto[];
  nextCursor: string | null;
}
