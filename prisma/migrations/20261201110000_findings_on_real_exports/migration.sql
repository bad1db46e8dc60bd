-- Findings a reviewer can trust on real crawl exports: inlinks from the crawl, every sitemap file that
-- declares a URL, the status of a finding's canonical, and the signals SEOs look for (lib/reconcile/sql.ts).
ALTER TABLE "crawl_pages"
  ADD COLUMN "inlinks" INTEGER,
  -- The export says "Canonicalised" without naming the canonical (a rule input, like canonical_key).
  ADD COLUMN "canonicalised" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "findings"
  ADD COLUMN "inlinks" INTEGER,
  -- Lists as Prisma writes them (nullable, defaulting to empty); the reconcile always fills them.
  ADD COLUMN "file_ids" INTEGER[] DEFAULT '{}',
  ADD COLUMN "canonical_status" INTEGER,
  ADD COLUMN "signals" TEXT[] DEFAULT '{}';
