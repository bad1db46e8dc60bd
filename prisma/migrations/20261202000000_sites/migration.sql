-- Monitoring a site over time (issue #16). An audit belongs to a site (its host, lib/sites); the site keeps
-- the URL state of its last complete run (site_urls), and every complete run after the first appends the
-- change events between that state and its own entries (site_changes), in SQL, in the transaction that
-- settles the run. Partial and failed runs touch neither. Schedules start runs of a site from the job
-- queue's scheduler; webhooks announce every finished run, with a delivery log.

CREATE TABLE "sites" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- The host the site is known by: lower case, with its port when not the scheme's default.
    "host" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    -- lib/sites/schema.ts ZSiteSettings: { requireConfirmedUnreached }.
    "settings" JSONB NOT NULL DEFAULT '{}',
    -- The complete run whose URLs site_urls holds (the previous complete audit of the next run).
    "last_complete_audit_id" UUID,
    -- When site_urls was last written by a complete run (null: never; the next complete run is the quiet
    -- baseline). Not derived from last_complete_audit_id, which deleting that audit clears.
    "state_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sites_last_complete_audit_id_fkey" FOREIGN KEY ("last_complete_audit_id") REFERENCES "audits"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "sites_host_key" ON "sites" ("host");

ALTER TABLE "audits"
    ADD COLUMN "site_id" UUID,
    -- The audit whose sources this run repeated ("Run again", a schedule); null: created from a form.
    ADD COLUMN "rerun_of" UUID,
    -- manual | rerun | schedule
    ADD COLUMN "trigger" TEXT NOT NULL DEFAULT 'manual',
    ADD COLUMN "schedule_id" INTEGER,
    -- Sitemap files answered 304 Not Modified whose stored entries were reused.
    ADD COLUMN "reused_files" INTEGER NOT NULL DEFAULT 0,
    -- When this complete run's change events were written (null: not a complete run of a site, or not yet).
    ADD COLUMN "changes_applied_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "audits_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    ADD CONSTRAINT "audits_trigger_check" CHECK ("trigger" IN ('manual', 'rerun', 'schedule'));
-- A site's runs, newest first.
CREATE INDEX "audits_site_id_created_at_idx" ON "audits" ("site_id", "created_at");

-- A file answered 304: the file of the earlier audit whose entries it reused.
ALTER TABLE "sitemap_files" ADD COLUMN "reused_from" INTEGER;

-- The site's URLs as its last complete run declared them, by normalized key. `missing_since` is the first
-- complete run that did not declare the URL (its removal is pending); the next complete run that does not
-- either confirms the removal and deletes the row, one that does clears it.
CREATE TABLE "site_urls" (
    "site_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "loc" TEXT NOT NULL,
    "lastmod" TIMESTAMPTZ(3),
    "first_seen_audit_id" UUID NOT NULL,
    "missing_since_audit_id" UUID,

    CONSTRAINT "site_urls_pkey" PRIMARY KEY ("site_id", "key"),
    CONSTRAINT "site_urls_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- What changed between two consecutive complete runs of a site (append-only).
CREATE TABLE "site_changes" (
    "id" BIGSERIAL NOT NULL,
    "site_id" UUID NOT NULL,
    "audit_id" UUID,
    "previous_audit_id" UUID,
    "type" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "previous_lastmod" TIMESTAMPTZ(3),
    "current_lastmod" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "site_changes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "site_changes_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "site_changes_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "site_changes_type_check" CHECK ("type" IN ('url_added', 'url_lastmod_changed', 'url_removed_pending', 'url_removed_confirmed'))
);
-- The change feed, newest first, all types or one.
CREATE INDEX "site_changes_site_id_id_idx" ON "site_changes" ("site_id", "id");
CREATE INDEX "site_changes_site_id_type_id_idx" ON "site_changes" ("site_id", "type", "id");
CREATE INDEX "site_changes_audit_id_idx" ON "site_changes" ("audit_id");

-- A schedule starts a run of its site repeating an audit's sources (the site's latest when null).
CREATE TABLE "site_schedules" (
    "id" SERIAL NOT NULL,
    "site_id" UUID NOT NULL,
    -- daily | weekly | cron; `cron` is the expression in force for all three.
    "cadence" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "from_audit_id" UUID,
    "next_run_at" TIMESTAMPTZ(3),
    "last_run_at" TIMESTAMPTZ(3),
    "last_audit_id" UUID,
    -- Why the last due time started nothing (a run of the site was still going, no audit to repeat).
    "last_skip" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "site_schedules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "site_schedules_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "site_schedules_from_audit_id_fkey" FOREIGN KEY ("from_audit_id") REFERENCES "audits"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "site_schedules_last_audit_id_fkey" FOREIGN KEY ("last_audit_id") REFERENCES "audits"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "site_schedules_cadence_check" CHECK ("cadence" IN ('daily', 'weekly', 'cron'))
);
CREATE INDEX "site_schedules_site_id_idx" ON "site_schedules" ("site_id");
-- The scheduler's scan: enabled schedules by due time.
CREATE INDEX "site_schedules_next_run_at_idx" ON "site_schedules" ("next_run_at") WHERE "enabled";

ALTER TABLE "audits" ADD CONSTRAINT "audits_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "site_schedules"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A URL told of every finished run of its site, its body signed with the secret (never returned by the API).
CREATE TABLE "site_webhooks" (
    "id" SERIAL NOT NULL,
    "site_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "site_webhooks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "site_webhooks_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "site_webhooks_site_id_idx" ON "site_webhooks" ("site_id");

-- One event sent to one webhook: its exact body (what the signature covers), its state and every attempt
-- ([{ at, status, error, ms }]).
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "webhook_id" INTEGER NOT NULL,
    "audit_id" UUID,
    "event" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    -- pending | delivered | failed
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "attempt_log" JSONB NOT NULL DEFAULT '[]',
    "response_status" INTEGER,
    "error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "site_webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_audit_id_fkey" FOREIGN KEY ("audit_id") REFERENCES "audits"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
-- A webhook's log, newest first; one delivery per webhook and run and event.
CREATE INDEX "webhook_deliveries_webhook_id_id_idx" ON "webhook_deliveries" ("webhook_id", "id");
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_audit_id_event_key" ON "webhook_deliveries" ("webhook_id", "audit_id", "event");
