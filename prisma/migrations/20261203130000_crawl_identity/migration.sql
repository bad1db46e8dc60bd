-- What identifies the crawl an audit read, so that "confirmed across two crawls" needs two crawls that
-- differ: the sha256 of the crawl export's bytes as read (an upload, or a fetched export), stored at
-- ingest. Run again copies an uploaded export byte for byte; its hash then matches the previous run's.
ALTER TABLE "audits" ADD COLUMN "crawl_sha256" TEXT;
-- The previous complete run of the site whose crawl this run repeated (same bytes, or the same crawl
-- date): set when the run settles, in which case its unreached rows got no two-crawl confirmation.
ALTER TABLE "audits" ADD COLUMN "crawl_repeat_of" UUID;
