// Writes of the sitemap lint: the run row, and its results with the run's outcome (lib/runs applies them
// in the same transaction), replacing the audit's previous results so that readers see one or the other.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import type { LintResult } from '@/lib/hygiene/types';
import type { FileDirt } from './feed';

export async function insertLint(
  id: string,
  auditId: string,
  createdBy: string,
  siteUrl: string | null,
): Promise<void> {
  await pool().query('INSERT INTO audit_lints (id, audit_id, created_by, site_url) VALUES ($1, $2, $3, $4)', [
    id,
    auditId,
    createdBy,
    siteUrl,
  ]);
}

/** Rows per INSERT: a few arrays of 5,000 values stay far below any parameter limit. */
const BATCH = 5_000;

export async function storeLintResults(
  client: DbClient,
  lintId: string,
  auditId: string,
  rules: readonly LintResult[],
  files: readonly FileDirt[],
  summary: Record<string, unknown>,
): Promise<void> {
  // The audit's earlier results (of any lint but this one) go in this transaction, so readers never see
  // a mix, and a lint that fails, rolling back, leaves them as they were.
  await client.query('DELETE FROM audit_lint_rules WHERE audit_id = $1', [auditId]);
  await client.query('DELETE FROM audit_lint_files WHERE audit_id = $1', [auditId]);
  await client.query('UPDATE audit_lints SET summary = $2 WHERE id = $1', [lintId, JSON.stringify(summary)]);
  if (rules.length > 0) {
    await client.query(
      `INSERT INTO audit_lint_rules (lint_id, audit_id, code, severity, count, examples)
       SELECT $1, $2, r.code, r.severity, r.count, r.examples
         FROM jsonb_to_recordset($3::jsonb) AS r(code text, severity text, count int, examples jsonb)`,
      [
        lintId,
        auditId,
        JSON.stringify(
          rules.map(({ code, severity, count, examples }) => ({ code, severity, count, examples })),
        ),
      ],
    );
  }
  for (let at = 0; at < files.length; at += BATCH) {
    const batch = files.slice(at, at + BATCH);
    await client.query(
      `INSERT INTO audit_lint_files (lint_id, audit_id, file_id, url, entries, pruned, dirt, flagged)
       SELECT $1, $2, * FROM unnest($3::int[], $4::text[], $5::int[], $6::int[], $7::float8[], $8::bool[])`,
      [
        lintId,
        auditId,
        batch.map((f) => f.fileId),
        batch.map((f) => f.url),
        batch.map((f) => f.entries),
        batch.map((f) => f.pruned),
        batch.map((f) => f.dirt),
        batch.map((f) => f.flagged),
      ],
    );
  }
}
