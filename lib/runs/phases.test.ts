import { describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { AUDIT_PHASES, AUDIT_STEPS, isRunPhase, PHASE_LABELS, phaseLabel } from './phases';

describe('run phases', () => {
  it('label every phase a run kind declares', () => {
    for (const phase of AUDIT_PHASES) expect(PHASE_LABELS[phase]).toMatch(/^[A-Z]/);
    expect(phaseLabel('reconcile_queued')).toBe('Queued for reconciliation');
    expect(isRunPhase('queued for reconciliation')).toBe(false);
    // A phase written by a newer worker is shown as it is rather than hidden.
    expect(phaseLabel('some_new_phase')).toBe('some_new_phase');
  });

  it('the audit kind declares its steps in order, each with a phase of its own kind', () => {
    expect(auditRun.steps.map((s) => s.name)).toEqual([...AUDIT_STEPS]);
    for (const step of auditRun.steps) {
      expect(auditRun.phases).toContain(step.phase);
      expect(auditRun.phases).toContain(step.waitingPhase);
    }
    expect(new Set(auditRun.steps.map((s) => s.queue)).size).toBe(auditRun.steps.length);
  });
});
