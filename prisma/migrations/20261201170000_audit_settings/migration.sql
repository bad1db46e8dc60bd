-- Audit settings an admin changes after creation (PATCH /api/v1/audits/{id}, lib/audits/schema.ts
-- ZAuditSettings), apart from the creation options the run reads. Issue #12: requireSpotCheckForUnreached.
-- A constant default: adding the column rewrites nothing.
ALTER TABLE "audits" ADD COLUMN "settings" JSONB NOT NULL DEFAULT '{}';
