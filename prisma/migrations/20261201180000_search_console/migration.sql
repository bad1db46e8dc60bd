-- Search Console (issue #13): what Google says about an audit's URLs, from the exports a team imports
-- (lib/gsc parses them) and from URL Inspection API runs. Everything goes with its audit (ON DELETE
-- CASCADE). Keys are computed like sitemap_entries.key (the audit's normalization profile), so the
-- per-sitemap table joins on (audit_id, key).

-- One import, a run of the lifecycle every background run has (docs/architecture.md "Runs";
-- lib/gsc/import-run.ts): the uploads of one request (loose files or a zip) are kept on disk, then its one
-- step reads them (lib/gsc), groups them into exports and stores their rows in the same transaction as
-- the run's outcome, so a bad file changes nothing already imported.
CREATE TABLE "gsc_imports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "audit_id" UUID NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "step" TEXT DEFAULT 'parse',
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
    -- [{ name, storedPath, bytes }]: the request's files as uploaded
    "uploads" JSONB NOT NULL,
    -- [{ name, problems: [{ line, message }] }] when the files could not be read (the run failed)
    "problems" JSONB,
    -- [{ name, kind, rows, ignoredColumns, notes }]
    "files" JSONB,
    -- [{ kind, folder, files, description, warnings, chartTotal, isTruncated }] (lib/gsc/types.ts)
    "exports" JSONB,
    -- [{ name, reason }]: zip entries that are not Search Console exports
    "ignored" JSONB NOT NULL DEFAULT '[]',
    -- counts of what was stored (urls, indexed, notIndexed, sitemaps, chartPoints, issues)
    "summary" JSONB,

    CONSTRAINT "gsc_imports_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gsc_imports_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_imports_step_check" CHECK ("step" IN ('parse')),
    CONSTRAINT "gsc_imports_phase_check" CHECK ("phase" IN ('queued', 'retrying', 'done', 'failed', 'cancelled', 'parsing'))
);
CREATE INDEX "gsc_imports_audit_id_created_at_idx" ON "gsc_imports" ("audit_id", "created_at");
CREATE INDEX "gsc_imports_claimed_at_idx" ON "gsc_imports" ("claimed_at") WHERE "claimed_at" IS NOT NULL;

-- One URL line of an export: a page-indexing drilldown's Table.csv (not indexed with its issue, or
-- indexed when the drilldown is of indexed pages) or a Performance export's page (it had impressions, so
-- it is indexed).
CREATE TABLE "gsc_url_states" (
    "import_id" UUID NOT NULL,
    -- position of the export in gsc_imports.exports
    "export_index" INTEGER NOT NULL,
    "line" INTEGER NOT NULL,
    "audit_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    -- normalized like sitemap_entries.key; null when the URL does not parse
    "key" TEXT,
    "state" TEXT NOT NULL,
    -- the issue as Search Console names it ("Page with redirect"); null for indexed pages
    "reason" TEXT,
    -- the issue mapped to the product's vocabulary (lib/gsc/reasons.ts): non_canonical, redirects,
    -- http_404, noindex, crawled_not_indexed, discovered_not_indexed, …, other
    "bucket" TEXT,
    "last_crawled" DATE,
    -- the export's Metadata "Sitemap": All known pages, All submitted pages, or a sitemap URL
    "scope" TEXT,
    "source" TEXT NOT NULL,

    CONSTRAINT "gsc_url_states_pkey" PRIMARY KEY ("import_id", "export_index", "line"),
    CONSTRAINT "gsc_url_states_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "gsc_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_url_states_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_url_states_state_check" CHECK ("state" IN ('indexed', 'not_indexed')),
    CONSTRAINT "gsc_url_states_source_check" CHECK ("source" IN ('drilldown', 'performance'))
);
CREATE INDEX "gsc_url_states_audit_id_key_idx" ON "gsc_url_states" ("audit_id", "key");

-- The Sitemaps report: one line per submitted sitemap.
CREATE TABLE "gsc_sitemap_reports" (
    "import_id" UUID NOT NULL,
    "export_index" INTEGER NOT NULL,
    "line" INTEGER NOT NULL,
    "audit_id" UUID NOT NULL,
    "sitemap" TEXT NOT NULL,
    "type" TEXT,
    "submitted" DATE,
    "last_read" DATE,
    "status" TEXT,
    "discovered_pages" INTEGER,
    "discovered_videos" INTEGER,

    CONSTRAINT "gsc_sitemap_reports_pkey" PRIMARY KEY ("import_id", "export_index", "line"),
    CONSTRAINT "gsc_sitemap_reports_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "gsc_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_sitemap_reports_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "gsc_sitemap_reports_audit_id_idx" ON "gsc_sitemap_reports" ("audit_id");

-- A page-indexing overview's Chart.csv: the property's indexed and not-indexed totals per day.
CREATE TABLE "gsc_chart_points" (
    "import_id" UUID NOT NULL,
    "export_index" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "audit_id" UUID NOT NULL,
    "indexed" INTEGER,
    "not_indexed" INTEGER,
    "impressions" INTEGER,

    CONSTRAINT "gsc_chart_points_pkey" PRIMARY KEY ("import_id", "export_index", "date"),
    CONSTRAINT "gsc_chart_points_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "gsc_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_chart_points_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "gsc_chart_points_audit_id_date_idx" ON "gsc_chart_points" ("audit_id", "date");

-- A page-indexing overview's Critical / Non-critical issues.csv: pages per reason.
CREATE TABLE "gsc_issue_counts" (
    "import_id" UUID NOT NULL,
    "export_index" INTEGER NOT NULL,
    "severity" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "audit_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "bucket" TEXT,
    "source" TEXT,
    "validation" TEXT,
    "trend" TEXT,
    "pages" INTEGER,

    CONSTRAINT "gsc_issue_counts_pkey" PRIMARY KEY ("import_id", "export_index", "severity", "line"),
    CONSTRAINT "gsc_issue_counts_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "gsc_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_issue_counts_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_issue_counts_severity_check" CHECK ("severity" IN ('critical', 'non-critical'))
);
CREATE INDEX "gsc_issue_counts_audit_id_idx" ON "gsc_issue_counts" ("audit_id");

-- A service-account key for the URL Inspection API, encrypted at rest (AES-256-GCM; the key comes from
-- GSC_CREDENTIALS_KEY or DATA_DIR, lib/gsc/credentials.ts). Never returned by the API.
CREATE TABLE "gsc_credentials" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "audit_id" UUID NOT NULL,
    -- the Search Console property: "sc-domain:example.com" or "https://www.example.com/"
    "property" TEXT NOT NULL,
    "client_email" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "auth_tag" BYTEA NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "gsc_credentials_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gsc_credentials_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "gsc_credentials_audit_id_key" ON "gsc_credentials" ("audit_id");

-- URL Inspection calls made per property and day (Google allows about 2,000; GSC_INSPECTION_DAILY_QUOTA).
CREATE TABLE "gsc_quota_usage" (
    "property" TEXT NOT NULL,
    -- the day in Pacific time, as Google counts its quota
    "day" DATE NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "gsc_quota_usage_pkey" PRIMARY KEY ("property", "day")
);

-- A URL Inspection run (lib/gsc/inspection-run.ts): a run of the lifecycle every background run has
-- (docs/architecture.md "Runs"), over a sample of declared URLs spread across sitemap files; when the day's
-- quota is spent it waits for the next day (resume_at) and goes on where it stopped.
CREATE TABLE "gsc_inspection_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "audit_id" UUID NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "step" TEXT DEFAULT 'select',
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
    "credential_id" UUID,
    "property" TEXT NOT NULL,
    -- { sample, seed }
    "request" JSONB NOT NULL,
    -- [{ url, fileId }] in the order they are inspected (the select step's choice)
    "targets" JSONB,
    -- when the run waits for the next day's quota
    "resume_at" TIMESTAMPTZ(3),
    "summary" JSONB,

    CONSTRAINT "gsc_inspection_runs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gsc_inspection_runs_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_inspection_runs_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "gsc_credentials"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "gsc_inspection_runs_step_check" CHECK ("step" IN ('select', 'inspect')),
    CONSTRAINT "gsc_inspection_runs_phase_check"
      CHECK ("phase" IN ('queued', 'retrying', 'done', 'failed', 'cancelled', 'selecting', 'inspect_queued', 'inspecting', 'waiting_for_quota'))
);
CREATE INDEX "gsc_inspection_runs_audit_id_created_at_idx" ON "gsc_inspection_runs" ("audit_id", "created_at");
CREATE INDEX "gsc_inspection_runs_claimed_at_idx" ON "gsc_inspection_runs" ("claimed_at") WHERE "claimed_at" IS NOT NULL;

-- One inspected URL: what urlInspection/index:inspect answered (or why it could not).
CREATE TABLE "gsc_inspections" (
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "audit_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "key" TEXT,
    "file_id" INTEGER,
    -- inspectionResult.indexStatusResult
    "verdict" TEXT,
    "coverage_state" TEXT,
    "indexing_state" TEXT,
    "page_fetch_state" TEXT,
    "robots_txt_state" TEXT,
    "google_canonical" TEXT,
    "user_canonical" TEXT,
    "last_crawl_time" TIMESTAMPTZ(3),
    "sitemaps" TEXT[] DEFAULT '{}',
    -- the product's reading: indexed, not_indexed (with bucket), or null when unknown
    "state" TEXT,
    "bucket" TEXT,
    "inspected_at" TIMESTAMPTZ(3) NOT NULL,
    -- { code, message } when the call failed
    "error" JSONB,

    CONSTRAINT "gsc_inspections_pkey" PRIMARY KEY ("run_id", "position"),
    CONSTRAINT "gsc_inspections_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "gsc_inspection_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_inspections_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gsc_inspections_state_check" CHECK ("state" IS NULL OR "state" IN ('indexed', 'not_indexed'))
);
CREATE INDEX "gsc_inspections_audit_id_key_idx" ON "gsc_inspections" ("audit_id", "key");
