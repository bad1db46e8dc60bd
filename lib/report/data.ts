// The shared report's reads of the live spot-checks: the audit's latest finished run (one run,
// so the summary, the checked rows and every row's verdict come from the same check), its first rows, and
// the verdicts of the findings on one page. Every stored text is cut in SQL (displaySql).
import 'server-only';
import { displaySql } from '@/lib/core/display';
import { pool } from '@/lib/db/client';
import type { SpotCheckSummary } from '@/lib/spot-check/stats';
import type { Hop, Verdict } from '@/lib/spot-check/types';

export interface ReportSpotCheck {
  /** Internal: used to read the run's items, never shown. */
  runId: string;
  status: 'succeeded' | 'partial';
  createdAt: string;
  finishedAt: string | null;
  summary: SpotCheckSummary;
  /** Rows the run checked (its items). */
  rows: number;
}

export interface ReportSpotItem {
  /** Internal: a key only, never shown. */
  findingId: number;
  url: string;
  reason: string;
  verdict: Verdict;
  explanation: string;
  finalStatus: number | null;
  chain: Hop[];
}

/**
 * The audit's latest finished run (succeeded or partial): the one that finished last, so its items are the
 * newest checks, as the review list's "latest verdict per finding" (lib/findings/evidence/live.ts) orders them.
 * A queued, running, failed or cancelled run has no results to show. An audit has a handful of runs (read
 * by the audit_id index); the count is a range of the items' primary key.
 */
export async function latestFinishedSpotCheck(auditId: string): Promise<ReportSpotCheck | null> {
  const { rows } = await pool().query<
    Omit<ReportSpotCheck, 'rows' | 'createdAt' | 'finishedAt'> & {
      createdAt: Date;
      finishedAt: Date | null;
      rows: number;
    }
  >(
    `SELECT r.id AS "runId", r.status, r.created_at AS "createdAt", r.finished_at AS "finishedAt", r.summary,
            (SELECT count(*)::int FROM spot_check_items i WHERE i.run_id = r.id) AS rows
       FROM spot_check_runs r
      WHERE r.audit_id = $1 AND r.status IN ('succeeded', 'partial') AND r.summary IS NOT NULL
      ORDER BY r.finished_at DESC NULLS LAST, r.id DESC LIMIT 1`,
    [auditId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The first `limit` checked rows of a run in finding-id order (its primary key's order: a range read). */
export async function reportSpotItems(runId: string, limit: number): Promise<ReportSpotItem[]> {
  const { rows } = await pool().query<ReportSpotItem>(
    `SELECT i.finding_id AS "findingId", ${displaySql('i.url')} AS url, i.reason, i.verdict,
            ${displaySql('i.explanation')} AS explanation, i.final_status AS "finalStatus",
            COALESCE((SELECT jsonb_agg(jsonb_build_object(
                        'url', ${displaySql("h->>'url'")},
                        'status', (h->>'status')::int,
                        'location', ${displaySql("h->>'location'")}) ORDER BY n)
                        FROM jsonb_array_elements(i.chain) WITH ORDINALITY AS c(h, n)), '[]'::jsonb) AS chain
       FROM spot_check_items i WHERE i.run_id = $1 ORDER BY i.finding_id LIMIT $2`,
    [runId, limit],
  );
  return rows;
}

/** The run's verdict of each of `findingIds` that it checked: one lookup per id on the primary key. */
export async function verdictsOf(
  runId: string,
  findingIds: readonly number[],
): Promise<Map<number, Verdict>> {
  if (findingIds.length === 0) return new Map();
  const { rows } = await pool().query<{ findingId: number; verdict: Verdict }>(
    `SELECT finding_id AS "findingId", verdict FROM spot_check_items
      WHERE run_id = $1 AND finding_id = ANY($2::int[])`,
    [runId, findingIds],
  );
  return new Map(rows.map((r) => [r.findingId, r.verdict]));
}

export interface AuditSite {
  /** The hosts with the most findings, most first (at most three). */
  hosts: string[];
  /** Distinct hosts in all. */
  total: number;
}

/** The site an audit is of, as its findings name it: the counts table keeps a row per host, so this is a
 * few hundred rows at most whatever the audit holds. No findings (not reconciled): no hosts. */
export async function auditSite(auditId: string): Promise<AuditSite> {
  const { rows } = await pool().query<{ host: string; total: number }>(
    `SELECT ${displaySql('host')} AS host, count(*) OVER ()::int AS total
       FROM finding_counts WHERE audit_id = $1 AND n > 0
      GROUP BY host ORDER BY sum(n) DESC, host LIMIT 3`,
    [auditId],
  );
  return { hosts: rows.map((r) => r.host), total: rows[0]?.total ?? 0 };
}
