-- The facts the audit's sitemap lint needs to judge how files are served (issue #15 item 1): per sitemap
-- file the response's Content-Type and Content-Encoding, whether its bytes were gzip and whether they
-- began with a byte order mark; and, on a robots.txt row, the body read (its first 500 KiB, what Google
-- reads), so robots_disallowed can be judged. All nullable: rows of older audits keep NULL (unknown), and
-- the lint then lists those rules as not judged; an upload has no Content-Type (NULL).
ALTER TABLE "sitemap_files"
    ADD COLUMN "content_type" TEXT,
    ADD COLUMN "content_encoding" TEXT,
    ADD COLUMN "gzipped" BOOLEAN,
    ADD COLUMN "has_bom" BOOLEAN,
    ADD COLUMN "robots_txt" TEXT;
