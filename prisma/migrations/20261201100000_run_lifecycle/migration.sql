-- One lifecycle for every background run (lib/runs): the audit row gains its typed step, the time a worker
-- claimed that step (NULL while the step waits in the queue: waiting is never judged stale), who cancelled
-- it, and CHECKs that keep step and phase to the closed lists of lib/runs/phases.ts.
ALTER TYPE "AuditStatus" RENAME TO "RunStatus";
ALTER TYPE "RunStatus" ADD VALUE 'cancelled';

ALTER TABLE "audits"
  ADD COLUMN "step" TEXT,
  ADD COLUMN "claimed_at" TIMESTAMPTZ(3),
  ADD COLUMN "cancelled_by" TEXT,
  ADD COLUMN "cancelled_at" TIMESTAMPTZ(3);

-- Phases were free text: map every string earlier code wrote to its typed phase.
UPDATE "audits" SET "phase" = CASE
    WHEN "phase" = 'queued (retrying after the worker stopped responding)' THEN 'retrying'
    WHEN "phase" = 'indexing sitemaps' THEN 'indexing_sitemaps'
    WHEN "phase" = 'queued for reconciliation' THEN 'reconcile_queued'
    WHEN "phase" IN ('queued', 'starting', 'sitemaps', 'crawl', 'reconciling', 'done', 'failed') THEN "phase"
    WHEN "status" = 'queued' THEN 'queued'
    WHEN "status" = 'running' THEN 'starting'
    WHEN "status" = 'failed' THEN 'failed'
    ELSE 'done' END;

-- The step each run is at: where a running audit is, or what still has to happen after it finished.
UPDATE "audits" SET
  "step" = CASE
    WHEN "status" = 'queued' THEN 'ingest'
    WHEN "status" = 'running' AND "phase" IN ('reconcile_queued', 'reconciling') THEN 'reconcile'
    WHEN "status" = 'running' THEN 'ingest'
    WHEN "status" IN ('succeeded', 'partial') AND "reconciled_at" IS NOT NULL
         AND NOT coalesce("findings_summary" ? 'indexedAt', false) THEN 'review_indexes'
    ELSE NULL END,
  "claimed_at" = CASE WHEN "status" = 'running' AND "phase" <> 'reconcile_queued' THEN "heartbeat_at" END;

ALTER TABLE "audits" ALTER COLUMN "step" SET DEFAULT 'ingest';
ALTER TABLE "audits" ADD CONSTRAINT "audits_step_check"
  CHECK ("step" IN ('ingest', 'reconcile', 'review_indexes'));
ALTER TABLE "audits" ADD CONSTRAINT "audits_phase_check"
  CHECK ("phase" IN ('queued', 'retrying', 'starting', 'sitemaps', 'crawl', 'indexing_sitemaps',
                     'reconcile_queued', 'reconciling', 'done', 'failed', 'cancelled'));

-- The reaper's scan: only claimed steps are judged by their heartbeat.
CREATE INDEX "audits_claimed_at_idx" ON "audits" ("claimed_at") WHERE "claimed_at" IS NOT NULL;
