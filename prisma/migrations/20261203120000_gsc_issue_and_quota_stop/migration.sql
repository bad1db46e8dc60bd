-- The issue a request names for a drill-down table uploaded without its Metadata.csv (a lone Table.csv,
-- as people share one): the import's step stores the table's URLs under it. Null: none was named.
ALTER TABLE "gsc_imports" ADD COLUMN "issue" TEXT;

-- Why a URL Inspection run stopped calling Google before its sample was done: Google's quota answer
-- (HTTP 429, RESOURCE_EXHAUSTED) as { status, code, message, limit: 'day' | 'minute', at }. The run waits
-- (resume_at) and goes on after the quota resets; null when it never got such an answer.
ALTER TABLE "gsc_inspection_runs" ADD COLUMN "quota_stop" JSONB;
