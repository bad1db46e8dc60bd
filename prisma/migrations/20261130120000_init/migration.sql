-- CreateEnum
CREATE TYPE "AuditStatus" AS ENUM ('queued', 'running', 'succeeded', 'partial', 'failed');

-- CreateTable
CREATE TABLE "audits" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "status" "AuditStatus" NOT NULL DEFAULT 'queued',
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "normalization" TEXT NOT NULL DEFAULT 'exact',
    "options" JSONB NOT NULL DEFAULT '{}',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "sitemap_files" INTEGER NOT NULL DEFAULT 0,
    "sitemap_files_failed" INTEGER NOT NULL DEFAULT 0,
    "sitemap_entries" INTEGER NOT NULL DEFAULT 0,
    "sitemap_unique_urls" INTEGER NOT NULL DEFAULT 0,
    "crawl_rows" INTEGER NOT NULL DEFAULT 0,
    "crawl_rows_rejected" INTEGER NOT NULL DEFAULT 0,
    "crawl_report" JSONB,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "errors" JSONB NOT NULL DEFAULT '[]',
    "error_message" TEXT,

    CONSTRAINT "audits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_sources" (
    "id" SERIAL NOT NULL,
    "audit_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT,
    "file_name" TEXT,
    "stored_path" TEXT,
    "bytes" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sitemap_files" (
    "id" SERIAL NOT NULL,
    "audit_id" UUID NOT NULL,
    "parent_id" INTEGER,
    "url" TEXT,
    "upload_name" TEXT,
    "kind" TEXT,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "position" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "http_status" INTEGER,
    "final_url" TEXT,
    "compressed_bytes" BIGINT,
    "uncompressed_bytes" BIGINT,
    "entries" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "error_line" INTEGER,
    "error_column" INTEGER,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "etag" TEXT,
    "last_modified" TEXT,
    "fetched_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sitemap_files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sitemap_entries" (
    "id" BIGSERIAL NOT NULL,
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

    CONSTRAINT "sitemap_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_pages" (
    "id" BIGSERIAL NOT NULL,
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

    CONSTRAINT "crawl_pages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audits_created_at_idx" ON "audits"("created_at");

-- CreateIndex
CREATE INDEX "audit_sources_audit_id_idx" ON "audit_sources"("audit_id");

-- CreateIndex
CREATE INDEX "sitemap_files_audit_id_position_idx" ON "sitemap_files"("audit_id", "position");

-- CreateIndex
CREATE INDEX "sitemap_entries_audit_id_key_idx" ON "sitemap_entries"("audit_id", "key");

-- CreateIndex
CREATE INDEX "crawl_pages_audit_id_key_idx" ON "crawl_pages"("audit_id", "key");

-- AddForeignKey
ALTER TABLE "audit_sources" ADD CONSTRAINT "audit_sources_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sitemap_files" ADD CONSTRAINT "sitemap_files_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE;
