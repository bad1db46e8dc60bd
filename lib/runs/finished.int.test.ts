// RunKind.onFinished: lib/runs calls it once a run is final — settled, failed by its step, given up by the
// reaper, cancelled — and not for a step handed on, a reaped step queued again or a follow-up step's end;
// a failing hook is logged and the run stands. The kind is the audit kind (its table and steps) with
// handlers and a hook of the test's.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import type { AuditPhase, AuditStep } from './phases';
import { reapStaleRuns } from './reaper';
import { runStep } from './runner';
import { cancelRunFor } from './service';
import { MAX_ATTEMPTS } from './settings';
import type { RunKind, StepResult } from './types';

afterAll(() => stopBoss());

const finished: string[] = [];

/** The audit kind whose ingest answers `result` (or throws it) and whose hook records the run. */
function kindWith(
  result: StepResult<AuditStep> | Error,
  onFinished: (id: string) => Promise<void> = async (id) => {
    finished.push(id);
  },
): RunKind<AuditStep, AuditPhase> {
  return {
    ...auditRun,
    onFinished,
    steps: auditRun.steps.map((step) =>
      step.name === 'ingest' || step.name === 'review_indexes'
        ? {
            ...step,
            handler: async () => async () => {
              if (result instanceof Error) throw result;
              return result;
            },
          }
        : step,
    ),
  };
}

async function newRun(): Promise<string> {
  const id = randomUUID();
  await insertAudit(id, 'finished hook', { normalization: 'exact' }, []);
  return id;
}

const status = async (id: string) =>
  (await pool().query('SELECT status FROM audits WHERE id = $1', [id])).rows[0]?.status;

describe('onFinished', () => {
  it('is called when a step settles the run, and not when it hands on', async () => {
    const settled = await newRun();
    await runStep(kindWith({ outcome: 'partial' }), 'ingest', { runId: settled, attempt: 1 });
    expect(await status(settled)).toBe('partial');
    expect(finished.filter((id) => id === settled)).toHaveLength(1);

    const handedOn = await newRun();
    await runStep(kindWith({ next: 'reconcile' }), 'ingest', { runId: handedOn, attempt: 1 });
    expect(finished).not.toContain(handedOn);
  });

  it('is called when the step fails the run, not when a follow-up step fails', async () => {
    const id = await newRun();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await runStep(kindWith(new Error('boom')), 'ingest', { runId: id, attempt: 1 });
    expect(await status(id)).toBe('failed');
    expect(finished.filter((f) => f === id)).toHaveLength(1);

    const followed = await newRun();
    await pool().query(`UPDATE audits SET status = 'succeeded', step = 'review_indexes' WHERE id = $1`, [
      followed,
    ]);
    await runStep(kindWith(new Error('index build failed')), 'review_indexes', {
      runId: followed,
      attempt: 1,
    });
    expect(await status(followed)).toBe('succeeded');
    expect(finished).not.toContain(followed);
    vi.restoreAllMocks();
  });

  it('is called when the reaper gives up, not when it queues the step again', async () => {
    const [retried, givenUp] = [await newRun(), await newRun()];
    await pool().query(
      `UPDATE audits SET status = 'running', claimed_at = now() - interval '1 hour',
         heartbeat_at = now() - interval '1 hour', attempt = CASE WHEN id = $2 THEN $3 ELSE 1 END
        WHERE id IN ($1, $2)`,
      [retried, givenUp, MAX_ATTEMPTS],
    );
    await reapStaleRuns([kindWith({ outcome: 'succeeded' })]);
    expect(await status(givenUp)).toBe('failed');
    expect(finished).toContain(givenUp);
    expect(finished).not.toContain(retried);
  });

  it('is called when the run is cancelled, not when there was nothing to cancel', async () => {
    const id = await newRun();
    const kind = kindWith({ outcome: 'succeeded' });
    await cancelRunFor(kind, id, 'Tess');
    expect(finished.filter((f) => f === id)).toHaveLength(1);
    await expect(cancelRunFor(kind, id, 'Tess')).rejects.toThrow(/already ended/);
    expect(finished.filter((f) => f === id)).toHaveLength(1);
  });

  it('failing, is logged and leaves the run as it settled', async () => {
    const id = await newRun();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const kind = kindWith({ outcome: 'succeeded' }, async () => {
      throw new Error('receiver table gone');
    });
    await runStep(kind, 'ingest', { runId: id, attempt: 1 });
    expect(await status(id)).toBe('succeeded');
    expect(logged.mock.calls.map((c) => String(c[0]))).toContain(
      `[runs] after audit ${id} finished, its follow-up failed`,
    );
    vi.restoreAllMocks();
  });
});
