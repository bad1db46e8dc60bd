-- The <loc> an uploaded index gave a child that was read from another upload instead of that URL (url is
-- NULL for such a file), as written: the lint judges the index's locations, and without it an uploaded
-- index's absolute locations read as missing (a relative-location error on every child).
ALTER TABLE "sitemap_files" ADD COLUMN "index_loc" TEXT;
