-- Live spot-checks (issue #12): a run of the spot_check kind (lib/spot-check/run.ts) per request, with the
-- lifecycle columns every run table has (docs/architecture.md "Runs"), and one row per checked finding.
-- Both go with their audit (ON DELETE CASCADE), so deleting an audit needs no step of its own.
CREATE TABLE "spot_check_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "audit_id" UUID NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "step" TEXT DEFAULT 'select',
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "claimed_at" TIMESTAMPTZ(3),
    "heartbeat_at" TIMESTAMPTZ(3),
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "cancelled_by" TEXT,
    "cancelled_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    -- What was asked ({ sample, seed } | { ids } | { filter }, ignoreRobots), the seed filled in.
    "request" JSONB NOT NULL,
    -- The finding ids the select step chose (checked in this order).
    "finding_ids" INTEGER[],
    -- What each host answered for a path that cannot exist (the soft-404 probe), per origin.
    "host_probes" JSONB,
    -- summarize() of the items (lib/spot-check/stats.ts).
    "summary" JSONB,

    CONSTRAINT "spot_check_runs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "spot_check_runs_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "spot_check_runs_step_check" CHECK ("step" IN ('select', 'check')),
    CONSTRAINT "spot_check_runs_phase_check"
      CHECK ("phase" IN ('queued', 'retrying', 'done', 'failed', 'cancelled', 'selecting', 'check_queued', 'checking'))
);

-- An audit's runs, newest first.
CREATE INDEX "spot_check_runs_audit_id_created_at_idx" ON "spot_check_runs" ("audit_id", "created_at");
-- The reaper's scan: only claimed steps are judged by their heartbeat.
CREATE INDEX "spot_check_runs_claimed_at_idx" ON "spot_check_runs" ("claimed_at") WHERE "claimed_at" IS NOT NULL;

CREATE TABLE "spot_check_items" (
    "run_id" UUID NOT NULL,
    "finding_id" INTEGER NOT NULL,
    "list" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    -- Every response in order: [{ url, status, location }].
    "chain" JSONB NOT NULL,
    "final_url" TEXT NOT NULL,
    "final_status" INTEGER,
    "content_type" TEXT,
    "verdict" TEXT NOT NULL,
    "live_reason" TEXT,
    "explanation" TEXT NOT NULL,
    "noindex" BOOLEAN NOT NULL,
    "canonical" TEXT,
    "title" TEXT,
    -- sha256 of the page's visible text, kept to compare later runs.
    "text_hash" TEXT,
    "ms" INTEGER NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    -- { code, message } when the URL could not be checked.
    "error" JSONB,

    CONSTRAINT "spot_check_items_pkey" PRIMARY KEY ("run_id", "finding_id"),
    CONSTRAINT "spot_check_items_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "spot_check_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
