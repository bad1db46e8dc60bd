-- Bulk rows are partitioned by audit: each audit's entries and crawl pages are loaded into a table of
-- their own (created, filled with COPY and indexed in one transaction, then attached), which is several
-- times faster than inserting into one shared indexed table, and deleting an audit drops its partitions.
-- Entries are identified by (audit, file, position) and crawl pages by (audit, line): no surrogate ids.

-- DropTable
DROP TABLE "sitemap_entries";

-- DropTable
DROP TABLE "crawl_pages";

-- CreateTable
CREATE TABLE "sitemap_entries" (
    "audit_id" UUID NOT NULL,
    "file_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "loc" TEXT NOT NULL,
    "key" TEXT,
    "loose_key" TEXT,
    "lastmod_raw" TEXT,
    "lastmod" TIMESTAMPTZ(3),
    "changefreq" TEXT,
    "priority" REAL,
    "images" INTEGER NOT NULL DEFAULT 0,
    "videos" INTEGER NOT NULL DEFAULT 0,
    "news" INTEGER NOT NULL DEFAULT 0,
    "alternates" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sitemap_entries_pkey" PRIMARY KEY ("audit_id","file_id","position")
) PARTITION BY LIST ("audit_id");

-- CreateTable
CREATE TABLE "crawl_pages" (
    "audit_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "key" TEXT,
    "loose_key" TEXT,
    "status" INTEGER,
    "canonical" TEXT,
    "canonical_key" TEXT,
    "indexable" BOOLEAN,
    "noindex" BOOLEAN NOT NULL DEFAULT false,
    "blocked_by_robots" BOOLEAN NOT NULL DEFAULT false,
    "crawled_at" TIMESTAMPTZ(3),
    "depth" INTEGER,
    "redirect_url" TEXT,
    "redirect_key" TEXT,
    "content_type" TEXT,

    CONSTRAINT "crawl_pages_pkey" PRIMARY KEY ("audit_id","line")
) PARTITION BY LIST ("audit_id");

-- CreateIndex
-- Crawl rows are looked up by key (redirect targets) during reconciliation; entries are only ever read
-- whole, so they get no key index (it would only slow every load down).
CREATE INDEX "crawl_pages_audit_id_key_idx" ON "crawl_pages"("audit_id", "key");
