-- An audit's findings may be written in two parts at once (two sessions of the reconcile job, each its
-- own table, keyed by itself) and attached side by side: findings are partitioned by ranges of
-- (audit_id, id) instead of by audit_id alone. An audit's part covers (audit, MINVALUE) to
-- (audit, MAXVALUE), or two parts split at an id. Existing partitions move to the new parent as they are:
-- their CHECK (audit_id = …) constraint proves the new bound, so no row is read.
ALTER TABLE "findings" RENAME TO "findings_by_audit";
ALTER TABLE "findings_by_audit" RENAME CONSTRAINT "findings_pkey" TO "findings_by_audit_pkey";

CREATE TABLE "findings" (LIKE "findings_by_audit" INCLUDING DEFAULTS) PARTITION BY RANGE ("audit_id", "id");
ALTER TABLE "findings" ADD CONSTRAINT "findings_pkey" PRIMARY KEY ("audit_id", "id");

DO $$
DECLARE
  part record;
  audit uuid;
BEGIN
  FOR part IN
    SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'findings_by_audit'::regclass
  LOOP
    audit := substring(part.bound FROM '''([0-9a-f-]{36})''')::uuid;
    EXECUTE format('ALTER TABLE "findings_by_audit" DETACH PARTITION %I', part.relname);
    EXECUTE format(
      'ALTER TABLE "findings" ATTACH PARTITION %I FOR VALUES FROM (%L, MINVALUE) TO (%L, MAXVALUE)',
      part.relname, audit, audit);
  END LOOP;
END $$;

DROP TABLE "findings_by_audit";
