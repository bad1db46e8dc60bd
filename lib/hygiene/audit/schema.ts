// What a client sends to (re-)grade an audit's sitemap files and what GET …/lint answers.
// Isomorphic: zod schemas and DTO types only.
import { z } from 'zod';
import type { LintExample, Severity } from '@/lib/hygiene/types';

/** `{}` or `{ siteUrl }`: what an uploaded file's relative locations resolve against (and the host the
 * host rules compare with); without it, the origin of the audit's first absolute entry. */
export const ZLintRequest = z
  .object({
    siteUrl: z
      .string()
      .max(2048)
      .url()
      .refine((v) => /^https?:\/\//i.test(v), { message: 'siteUrl must be an http(s) URL' })
      .optional(),
  })
  .strict();
export type TLintRequest = z.infer<typeof ZLintRequest>;

/** Files per page of the dirt ranking. */
export const LINT_FILES_DEFAULT = 50;
export const LINT_FILES_MAX = 500;

export const ZLintPage = z.object({
  limit: z.coerce.number().int().min(1).max(LINT_FILES_MAX).default(LINT_FILES_DEFAULT),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TLintPage = z.infer<typeof ZLintPage>;

export interface LintRuleDto {
  code: string;
  severity: Severity;
  title: string;
  count: number;
  examples: LintExample[];
  fix: string;
}

export interface LintFileDto {
  fileId: number;
  url: string;
  entries: number;
  pruned: number;
  /** pruned / entries, 0-1. */
  dirt: number;
  /** dirt above 1 %. */
  flagged: boolean;
}

export interface LintReport {
  /** The latest lint's status ('none' before the first): queued/running while one is going. */
  status: string;
  lint: {
    id: string;
    status: string;
    phase: string;
    error: string | null;
    createdAt: string;
    finishedAt: string | null;
  } | null;
  /** When the stored result (the last succeeded lint's) was computed; null when there is none. */
  checkedAt: string | null;
  summary: Record<string, unknown> | null;
  rules: LintRuleDto[];
  /** A page of the files ranked by dirt (dirtiest first). */
  files: LintFileDto[];
  filesTotal: number;
  filesFlagged: number;
}

/** Whether a lint of this status is still to finish (the report is polled meanwhile). */
export function isLintActive(status: string): boolean {
  return status === 'queued' || status === 'running';
}
