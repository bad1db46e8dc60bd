-- Evidence for the reconcile's newer held reasons (docs/reconciliation.md): how many declared pages share
-- a canonical_pattern row's canonical, with a few of them, and the crawl status of a url_variant's
-- crawled form (a replacement is only offered when it answers 200).
ALTER TABLE "findings"
  ADD COLUMN "pattern_count" INTEGER,
  ADD COLUMN "pattern_examples" TEXT[],
  ADD COLUMN "variant_status" INTEGER;
