-- A crawl export added to a settled audit later is read by a step of its own, `add_crawl`, which starts the
-- audit's run again from there (the sitemap entries it read stay) and hands on to the reconcile step.
ALTER TABLE "audits" DROP CONSTRAINT "audits_step_check";
ALTER TABLE "audits" ADD CONSTRAINT "audits_step_check"
  CHECK ("step" IN ('ingest', 'add_crawl', 'reconcile', 'site_history', 'review_indexes'));
