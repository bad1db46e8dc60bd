-- Spot-checks run again (issue #12): a run started by retrying another names it. Runs are history, so the
-- source is never changed; deleting it (with its audit) leaves the retry standing without the link.
ALTER TABLE "spot_check_runs"
  ADD COLUMN "retry_of" UUID REFERENCES "spot_check_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Deleting a run looks up the runs that name it (ON DELETE SET NULL).
CREATE INDEX "spot_check_runs_retry_of_idx" ON "spot_check_runs" ("retry_of") WHERE "retry_of" IS NOT NULL;
