-- Sitemap entries and crawl rows are written once, in order, by the loader (a file's positions and an
-- export's lines are unique by construction) and read only whole, by the reconcile job's hash joins. Their
-- primary keys had no reader, and building them was 1.3 s of Postgres work at the end of a 2,000,000-row
-- ingest. Dropping the parent's constraint drops every partition's index with it.
ALTER TABLE "sitemap_entries" DROP CONSTRAINT "sitemap_entries_pkey";
ALTER TABLE "crawl_pages" DROP CONSTRAINT "crawl_pages_pkey";
