-- Spot-check runs with a budget: each run keeps the budget it was started with (time, requests, how many
-- 429/503 answers in a row give a host up, the longest Retry-After it waits), so a run states what it
-- could spend even after the settings change; and who started it by id, for the per-user limit of
-- active runs (names are not unique).
ALTER TABLE "spot_check_runs"
  ADD COLUMN "budget" JSONB,
  ADD COLUMN "created_by_id" UUID;

-- The per-user limit counts a user's queued and running runs at every start.
CREATE INDEX "spot_check_runs_active_by_user_idx" ON "spot_check_runs" ("created_by_id")
  WHERE "status" IN ('queued', 'running');
