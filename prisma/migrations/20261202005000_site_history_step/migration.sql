-- A settled audit's site history (two-crawl confirmation, change events, the site's URL state) is its own
-- follow-up step, `site_history`, run right after the outcome and before the review indexes: a 1,000,000-URL
-- run's history takes about 10 s of set-based SQL, which no longer holds back the audit's outcome.
ALTER TABLE "audits" DROP CONSTRAINT "audits_step_check";
ALTER TABLE "audits" ADD CONSTRAINT "audits_step_check"
  CHECK ("step" IN ('ingest', 'reconcile', 'site_history', 'review_indexes'));
