-- The built-in crawler: an audit may crawl the site instead of importing a crawl export. Its crawl is a
-- step of the audit's run (`crawl_site`, phase `crawling`) whose frontier lives here, so a crawl resumes
-- after its worker dies: every URL admitted (crawl_frontier), every answer (crawl_results) and each
-- flush's inlink counts (crawl_inlinks) are written together, one transaction per flush, append only.
-- When the crawl ends its pages are loaded into crawl_pages like an export's rows.
ALTER TABLE "audits" DROP CONSTRAINT "audits_step_check";
ALTER TABLE "audits" ADD CONSTRAINT "audits_step_check"
  CHECK ("step" IN ('ingest', 'add_crawl', 'crawl_site', 'reconcile', 'site_history', 'review_indexes'));
ALTER TABLE "audits" DROP CONSTRAINT "audits_phase_check";
ALTER TABLE "audits" ADD CONSTRAINT "audits_phase_check"
  CHECK ("phase" IN ('queued', 'retrying', 'starting', 'sitemaps', 'crawl', 'crawling', 'indexing_sitemaps',
                     'reconcile_queued', 'reconciling', 'done', 'failed', 'cancelled'));

-- The crawl's totals as of its last flush (lib/crawler/types.ts CrawlProgress): counts by status, sections
-- crawled completely or cut by a limit, why it stopped.
ALTER TABLE "audits" ADD COLUMN "crawl_progress" JSONB;

CREATE TABLE "crawl_frontier" (
    "audit_id" UUID NOT NULL REFERENCES "audits"("id") ON DELETE CASCADE,
    "seq" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    CONSTRAINT "crawl_frontier_pkey" PRIMARY KEY ("audit_id", "seq")
);

CREATE TABLE "crawl_results" (
    "audit_id" UUID NOT NULL REFERENCES "audits"("id") ON DELETE CASCADE,
    "seq" INTEGER NOT NULL,
    -- The loose key of the frontier URL (lib/urls/normalize.ts), for crawl_pages.
    "loose_key" TEXT,
    "status" INTEGER,
    "redirect_url" TEXT,
    "redirect_key" TEXT,
    "content_type" TEXT,
    "canonical" TEXT,
    "canonical_key" TEXT,
    "canonical_source" TEXT,
    "noindex" BOOLEAN NOT NULL,
    -- Where the noindex came from, comma separated (meta:robots, meta:googlebot, header).
    "noindex_sources" TEXT,
    "nofollow" BOOLEAN NOT NULL,
    "blocked_by_robots" BOOLEAN NOT NULL,
    "method" TEXT,
    "response_ms" INTEGER,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "outlinks_internal" INTEGER NOT NULL,
    "outlinks_external" INTEGER NOT NULL,
    "truncated" BOOLEAN NOT NULL,
    "error_code" TEXT,
    "error_message" TEXT,
    CONSTRAINT "crawl_results_pkey" PRIMARY KEY ("audit_id", "seq")
);

CREATE TABLE "crawl_inlinks" (
    "audit_id" UUID NOT NULL REFERENCES "audits"("id") ON DELETE CASCADE,
    "key" TEXT NOT NULL,
    "n" INTEGER NOT NULL
);
CREATE INDEX "crawl_inlinks_audit_id_idx" ON "crawl_inlinks" ("audit_id");
