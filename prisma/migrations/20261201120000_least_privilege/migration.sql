-- Least privilege (issue #11): the app connects as roles that cannot change the schema (lib/db/roles.ts
-- creates them and applies their grants on every start, after the migrations). This migration holds what
-- does not depend on the roles existing.

-- Nobody but the owner creates objects in public (Postgres 15 and later already default to this).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- The worker's own tables: per-audit partitions of the bulk tables and the reconcile's scratch tables.
-- The worker role creates them here (its search_path puts this schema first), never in public, so it
-- cannot plant a table, view or function where the web server or the owner would find it.
CREATE SCHEMA IF NOT EXISTS "audit_bulk";

-- The decision log is an audit trail: besides UPDATE (refused since 20261130150000_findings), DELETE and
-- TRUNCATE are refused too, whoever asks. An audit's log goes only with the audit (its partition dropped).
CREATE TRIGGER "decision_log_no_delete" BEFORE DELETE ON "decision_log"
  FOR EACH ROW EXECUTE FUNCTION "decision_log_is_append_only"();
CREATE TRIGGER "decision_log_no_truncate" BEFORE TRUNCATE ON "decision_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "decision_log_is_append_only"();

-- The decision log stays the owner's (an owner could always rewrite its own table), so the worker creates
-- and drops an audit's partition of it through these functions. Arguments are typed (uuid), names are
-- built here and quoted with %I, search_path is pinned: the only thing a caller chooses is which audit.

-- An existing audit's decision-log partition (the reconcile step, once its findings are committed).
CREATE FUNCTION "create_decision_log_partition"(audit uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM public.audits WHERE id = audit) THEN
    RAISE EXCEPTION 'no audit %', audit USING ERRCODE = 'no_data_found';
  END IF;
  EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I PARTITION OF public.decision_log FOR VALUES IN (%L)',
                 'decision_log_' || replace(audit::text, '-', ''), audit);
END;
$$;

-- Drops an audit's decision-log partition when its findings are reset (a reconcile starting over): refused
-- while the audit exists and its log holds a decision, so no role below the owner can erase decisions.
CREATE FUNCTION "drop_decision_log_partition"(audit uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  part text := 'decision_log_' || replace(audit::text, '-', '');
  held boolean := false;
BEGIN
  IF to_regclass(format('public.%I', part)) IS NULL THEN
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM public.audits WHERE id = audit) THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I)', part) INTO held;
    IF held THEN
      RAISE EXCEPTION 'the decision log of audit % holds decisions; it is removed only with the audit', audit
        USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  EXECUTE format('DROP TABLE public.%I', part);
END;
$$;

-- Drops every table and view of a deleted audit (partitions, the second findings part, reconcile sets),
-- for the web server, which deletes audits but may not run DDL itself. Refused while the audit exists.
-- Dropping a partition locks its parent for a moment; lock_timeout bounds how long other audits' readers
-- can queue behind it (the caller retries, and whatever is left is swept at the next start).
CREATE FUNCTION "drop_audit_tables"(audit uuid) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
  hex text := replace(audit::text, '-', '');
  rel record;
  dropped integer := 0;
BEGIN
  IF EXISTS (SELECT 1 FROM public.audits WHERE id = audit) THEN
    RAISE EXCEPTION 'audit % exists; its tables are dropped only once it is deleted', audit
      USING ERRCODE = 'object_in_use';
  END IF;
  FOR rel IN
    SELECT n.nspname, c.relname, c.relkind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname IN ('public', 'audit_bulk') AND c.relkind IN ('r', 'p', 'v')
       AND (c.relname IN ('sitemap_entries_' || hex, 'crawl_pages_' || hex, 'findings_' || hex,
                          'findings2_' || hex, 'decision_log_' || hex)
            OR c.relname ~ ('^reconcile_[a-z0-9]+_' || hex || '$'))
     -- Views read the partitions and the scratch tables; the second findings part, unattached, reads nothing.
     ORDER BY c.relkind <> 'v', c.relname NOT LIKE 'reconcile\_%', c.relname
  LOOP
    EXECUTE format('DROP %s IF EXISTS %I.%I', CASE rel.relkind WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END,
                   rel.nspname, rel.relname);
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END;
$$;

REVOKE ALL ON FUNCTION "create_decision_log_partition"(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION "drop_decision_log_partition"(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION "drop_audit_tables"(uuid) FROM PUBLIC;
