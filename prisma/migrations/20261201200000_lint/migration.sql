-- The audit's sitemap lint (issue #15 items 1 and 4): a run of the lint kind (lib/lint/run.ts) grades the
-- audit's stored sitemap files with lib/hygiene's engine and stores, with its outcome and in the same
-- transaction, one row per rule that fired and one per file with its dirt (share of its entries on the
-- prune list). That transaction deletes the audit's previous results first, so an audit has the results
-- of its last succeeded lint only, and a lint that fails leaves them as they were. Everything goes with
-- its audit (ON DELETE CASCADE).
CREATE TABLE "audit_lints" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "audit_id" UUID NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "step" TEXT DEFAULT 'lint',
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
    -- What relative locations of uploaded files resolve against (POST …/lint { siteUrl }); null: inferred.
    "site_url" TEXT,
    -- { files, filesFailed, urls, children, distinctUrls, base, notJudged } of the succeeded run.
    "summary" JSONB,

    CONSTRAINT "audit_lints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_lints_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "audit_lints_step_check" CHECK ("step" IN ('lint')),
    CONSTRAINT "audit_lints_phase_check" CHECK ("phase" IN ('queued', 'retrying', 'done', 'failed', 'cancelled', 'linting'))
);
-- An audit's lints, newest first.
CREATE INDEX "audit_lints_audit_id_created_at_idx" ON "audit_lints" ("audit_id", "created_at");
-- The reaper's scan: only claimed steps are judged by their heartbeat.
CREATE INDEX "audit_lints_claimed_at_idx" ON "audit_lints" ("claimed_at") WHERE "claimed_at" IS NOT NULL;

-- A rule that fired: its count and up to 20 examples ([{ url?, file, line?, detail? }]). Title and fix
-- come from the catalogue (lib/hygiene/rules.ts) when read, so a reworded fix shows on old results too.
CREATE TABLE "audit_lint_rules" (
    "lint_id" UUID NOT NULL,
    "audit_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "examples" JSONB NOT NULL,

    CONSTRAINT "audit_lint_rules_pkey" PRIMARY KEY ("lint_id", "code"),
    CONSTRAINT "audit_lint_rules_lint_id_fkey" FOREIGN KEY ("lint_id") REFERENCES "audit_lints"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "audit_lint_rules_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "audit_lint_rules_severity_check" CHECK ("severity" IN ('error', 'warning', 'info'))
);
CREATE INDEX "audit_lint_rules_audit_id_idx" ON "audit_lint_rules" ("audit_id");

-- A sitemap file of the audit with URL entries: how many, how many are on the prune list, and their share
-- (dirt); flagged above 1 %. Read ranked by dirt (a few thousand rows at most: sorted when read).
CREATE TABLE "audit_lint_files" (
    "lint_id" UUID NOT NULL,
    "audit_id" UUID NOT NULL,
    "file_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "entries" INTEGER NOT NULL,
    "pruned" INTEGER NOT NULL,
    "dirt" DOUBLE PRECISION NOT NULL,
    "flagged" BOOLEAN NOT NULL,

    CONSTRAINT "audit_lint_files_pkey" PRIMARY KEY ("lint_id", "file_id"),
    CONSTRAINT "audit_lint_files_lint_id_fkey" FOREIGN KEY ("lint_id") REFERENCES "audit_lints"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "audit_lint_files_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "audit_lint_files_audit_id_idx" ON "audit_lint_files" ("audit_id");
