// The database's CHECK constraints on a run table list exactly the steps and phases its kind declares.
import { describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { pool } from '@/lib/db/client';
import { RUN_STATUSES } from './phases';

async function checkValues(table: string, column: string): Promise<string[]> {
  const { rows } = await pool().query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype = 'c' AND conname = $2`,
    [table, `${table}_${column}_check`],
  );
  const def = rows[0]?.def ?? '';
  return [...def.matchAll(/'([^']+)'::text/g)].map((m) => m[1] as string).sort();
}

describe('run tables', () => {
  it('refuse any step or phase their kind does not declare', async () => {
    expect(await checkValues(auditRun.table, 'step')).toEqual(auditRun.steps.map((s) => s.name).sort());
    expect(await checkValues(auditRun.table, 'phase')).toEqual([...auditRun.phases].sort());
    await expect(
      pool().query(
        `INSERT INTO ${auditRun.table} (id, name, phase) VALUES (gen_random_uuid(), 'x', 'queued for reconciliation')`,
      ),
    ).rejects.toThrow(/audits_phase_check/);
  });

  it('share one status type with every value lib/runs knows', async () => {
    const { rows } = await pool().query<{ v: string }>(
      `SELECT unnest(enum_range(NULL::"RunStatus"))::text AS v`,
    );
    expect(rows.map((r) => r.v)).toEqual([...RUN_STATUSES]);
  });
});
