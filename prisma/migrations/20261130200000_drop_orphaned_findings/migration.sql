-- Deleting an audit used to leave its findings and its decision log behind (lib/audits/mutations.ts now
-- drops them): drop every such part whose audit no longer exists.
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT c.relname,
           substring(pg_get_expr(c.relpartbound, c.oid) FROM '''([0-9a-f-]{36})''')::uuid AS audit
      FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent IN ('findings'::regclass, 'decision_log'::regclass)
  LOOP
    IF NOT EXISTS (SELECT 1 FROM "audits" WHERE "id" = part.audit) THEN
      EXECUTE format('DROP TABLE %I', part.relname);
    END IF;
  END LOOP;
END $$;
