-- A move in the change feed: a URL of the site's state missing from a complete run whose crawl redirects it
-- to a URL that run adds. It is its own event (url_moved, with the URL it moved to in "target") instead of
-- a pending removal: the crawl's redirect settles what happened to it.
ALTER TABLE "site_changes" ADD COLUMN "target" TEXT;
ALTER TABLE "site_changes" DROP CONSTRAINT "site_changes_type_check";
ALTER TABLE "site_changes" ADD CONSTRAINT "site_changes_type_check"
    CHECK ("type" IN ('url_added', 'url_lastmod_changed', 'url_removed_pending', 'url_removed_confirmed', 'url_moved'));
