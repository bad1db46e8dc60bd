-- Facts the ingest learns while the rows stream through, so the reconcile job does not scan for them:
-- how many keyed rows repeat an earlier key (0: the partitions are the keyed sets as they are), the newest
-- lastmod and the latest crawl time. NULL: not known (audits ingested before this migration); the
-- reconcile job then computes them itself. And how long each stage took (seconds), for users and the benchmark.

-- AlterTable
ALTER TABLE "audits" ADD COLUMN "sitemap_duplicate_keys" INTEGER,
ADD COLUMN "sitemap_newest_lastmod" TIMESTAMPTZ(3),
ADD COLUMN "crawl_duplicate_keys" INTEGER,
ADD COLUMN "crawl_latest_at" TIMESTAMPTZ(3),
ADD COLUMN "timings" JSONB;

-- The reconcile job joins the crawl by hash (it reads all of it); the key index only slowed the import.
-- DropIndex
DROP INDEX "crawl_pages_audit_id_key_idx";
