-- What the corrected set needs to write each sitemap file back as it was read: a <url>'s children other
-- than plain loc/lastmod/changefreq/priority, serialised in document order (NULL for a plain entry, so a
-- plain million-URL sitemap stores nothing more); a file's root start tag (its namespace declarations);
-- and, on a child of an index, the <loc> and <lastmod> the index declared for it.
ALTER TABLE "sitemap_entries" ADD COLUMN "extra" TEXT;
ALTER TABLE "sitemap_files" ADD COLUMN "root_tag" TEXT;
ALTER TABLE "sitemap_files" ADD COLUMN "listed_loc" TEXT;
ALTER TABLE "sitemap_files" ADD COLUMN "listed_lastmod" TEXT;
