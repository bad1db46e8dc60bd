-- The diff between two finished audits of a site (GET /api/v1/audits/{a}/diff/{b}), stored the first time
-- it is asked for: both audits' entries, findings and crawl rows never change once they are settled, so
-- every later page, type and count is read from these rows instead of diffing two 1,000,000-URL audits
-- again (about 8 s a request). Rows go with either audit (ON DELETE CASCADE).
CREATE TABLE "audit_diffs" (
    "from_audit_id" UUID NOT NULL,
    "to_audit_id" UUID NOT NULL,
    -- { <diff type>: n } for every type that has rows.
    "counts" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "audit_diffs_pkey" PRIMARY KEY ("from_audit_id", "to_audit_id"),
    CONSTRAINT "audit_diffs_from_audit_id_fkey" FOREIGN KEY ("from_audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "audit_diffs_to_audit_id_fkey" FOREIGN KEY ("to_audit_id") REFERENCES "audits"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "audit_diffs_to_audit_id_idx" ON "audit_diffs" ("to_audit_id");

-- One differing key of a stored diff, numbered within its type in key order (`n`): pages are read by
-- (ord, n), which no URL's length can push past a btree entry's limit.
CREATE TABLE "audit_diff_rows" (
    "from_audit_id" UUID NOT NULL,
    "to_audit_id" UUID NOT NULL,
    -- The type's place in the API's order (lib/sites/schema.ts DIFF_TYPES, from 1).
    "ord" SMALLINT NOT NULL,
    "n" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "target" TEXT,
    "from_list" TEXT,
    "from_reason" TEXT,
    "to_list" TEXT,
    "to_reason" TEXT,
    "previous_lastmod" TIMESTAMPTZ(3),
    "current_lastmod" TIMESTAMPTZ(3),

    CONSTRAINT "audit_diff_rows_pkey" PRIMARY KEY ("from_audit_id", "to_audit_id", "ord", "n"),
    CONSTRAINT "audit_diff_rows_from_audit_id_to_audit_id_fkey" FOREIGN KEY ("from_audit_id", "to_audit_id") REFERENCES "audit_diffs"("from_audit_id", "to_audit_id") ON DELETE CASCADE ON UPDATE CASCADE
);
