-- Webhooks that cannot block each other: a per-webhook lease (one attempt in flight per webhook, taken by
-- the worker's dispatcher), a pause after consecutive failed attempts, a dropped status for deliveries over
-- the pending cap, and the signing secret sealed (AES-256-GCM) instead of stored in plain text.
--
-- SQL cannot seal (the key lives outside the database), so the plain-text column is renamed and kept
-- only for rows made before this migration: the worker seals them when it starts (and a delivery seals
-- its webhook's secret first if the worker has not yet), then empties the column
-- (sealLegacySecrets in lib/sites/webhooks/mutations.ts).
ALTER TABLE "site_webhooks" RENAME COLUMN "secret" TO "legacy_secret";
ALTER TABLE "site_webhooks" ALTER COLUMN "legacy_secret" DROP NOT NULL;
ALTER TABLE "site_webhooks"
    ADD COLUMN "secret_ciphertext" BYTEA,
    ADD COLUMN "secret_iv" BYTEA,
    ADD COLUMN "secret_auth_tag" BYTEA,
    -- Failed attempts since the last 2xx; at WEBHOOK_PAUSE_AFTER_FAILURES the webhook is paused.
    ADD COLUMN "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "paused_at" TIMESTAMPTZ(3),
    ADD COLUMN "paused_reason" TEXT,
    -- The attempt in flight and until when its lease holds (a worker that died frees it then).
    ADD COLUMN "busy_delivery_id" BIGINT,
    ADD COLUMN "busy_until" TIMESTAMPTZ(3),
    ADD CONSTRAINT "site_webhooks_secret_check" CHECK (
      ("secret_ciphertext" IS NOT NULL AND "secret_iv" IS NOT NULL AND "secret_auth_tag" IS NOT NULL)
      OR "legacy_secret" IS NOT NULL);

ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_status_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check"
  CHECK ("status" IN ('pending', 'delivered', 'failed', 'dropped'));
-- What the dispatcher and the pending cap look for: a webhook's pending deliveries, oldest first.
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" ("webhook_id", "id")
  WHERE "status" = 'pending';
