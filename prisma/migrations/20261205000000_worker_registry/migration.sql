-- Many workers on many machines share one database. Each registers the machine it runs on and counts the
-- run steps it took; every run keeps, per claim of one of its steps, which worker took it (a short JSON
-- array: steps × attempts, appended by the claim itself, so it lands or fails with the claim).
ALTER TABLE "worker_heartbeats" ADD COLUMN "host" TEXT NOT NULL DEFAULT '';
ALTER TABLE "worker_heartbeats" ADD COLUMN "runs_taken" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "audits" ADD COLUMN "step_workers" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "spot_check_runs" ADD COLUMN "step_workers" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "gsc_imports" ADD COLUMN "step_workers" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "gsc_inspection_runs" ADD COLUMN "step_workers" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "audit_lints" ADD COLUMN "step_workers" JSONB NOT NULL DEFAULT '[]';

-- The app roles' passwords when the database is shared by several machines (DATABASE_URL): every machine
-- that starts migrates and provisions as the owner, so the owner keeps them here instead of in one
-- machine's DATA_DIR (lib/db/roles.ts). A schema of its own, which no app role may use: the roles'
-- grants cover public and pgboss only.
CREATE SCHEMA IF NOT EXISTS "app_private";
REVOKE ALL ON SCHEMA "app_private" FROM PUBLIC;
CREATE TABLE "app_private"."role_passwords" (
    "role" TEXT PRIMARY KEY,
    "password" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
