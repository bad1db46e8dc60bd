// The database roles the app connects as: the web server and the worker get the least they
// need, the owner keeps the schema. Run by the launcher after the migrations, as the owner, on every start:
// grants are applied to every table there is then, so tables of later migrations are covered too.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { withConnection } from './connection';
import { BULK_SCHEMA } from './partitions';
import { CRON_QUEUE, QUEUES } from './queues';

export interface AppRoles {
  /** The web server's URL: DML, the decision log INSERT/SELECT only, no DDL. */
  webUrl: string;
  /** The worker's URL: the web's rights, plus ownership of the partitioned bulk tables. */
  workerUrl: string;
  /** False when the owner may not create roles and none were given: the app then runs as the owner. */
  leastPrivilege: boolean;
}

interface RoleNames {
  web: string;
  worker: string;
}

// Serialises two launchers provisioning the same database (any constant; Prisma's is 72707369).
const PROVISION_LOCK = 72707370;

/** `<database>_web` and `<database>_worker` (sitemap_audit_web, sitemap_audit_worker for the embedded
 * server): roles are shared by a cluster's databases, so each database gets its own. */
export function roleNames(database: string): RoleNames {
  const base = /^[a-z_][a-z0-9_]{0,40}$/.test(database) ? database : 'sitemap_audit';
  return { web: `${base}_web`, worker: `${base}_worker` };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

function withCredentials(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** The roles' passwords, made once and kept in DATA_DIR (mode 600) beside the owner's. */
function rolePasswords(dataDir: string): { web: string; worker: string } {
  const file = path.join(dataDir, 'database-roles.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const fresh = {
      web: randomBytes(18).toString('base64url'),
      worker: randomBytes(18).toString('base64url'),
    };
    try {
      // `wx`: a launcher starting at the same moment keeps the file the other one wrote.
      writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { web?: unknown; worker?: unknown };
  if (typeof saved.web !== 'string' || typeof saved.worker !== 'string') {
    throw new Error(`${file} does not hold the web and worker passwords; remove it to make new ones`);
  }
  return { web: saved.web, worker: saved.worker };
}

function userOf(url: string, variable: string): string {
  try {
    const user = decodeURIComponent(new URL(url).username);
    if (user) return user;
  } catch {
    // reported below
  }
  throw new Error(`${variable} must be a postgresql:// URL with a user name`);
}

interface Owner {
  user: string;
  database: string;
  superuser: boolean;
  createRole: boolean;
  version: number;
}

async function ownerInfo(client: pg.ClientBase): Promise<Owner> {
  const { rows } = await client.query(
    `SELECT current_user AS user, current_database() AS database, r.rolsuper AS superuser,
            r.rolcreaterole AS "createRole", current_setting('server_version_num')::int AS version
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  return rows[0] as Owner;
}

/**
 * The roles' passwords on a database several machines share (DATABASE_URL). Every machine migrates and
 * provisions as the owner at start and sets the roles' passwords, so they must be the same everywhere: a
 * password made in one machine's DATA_DIR locked the others out as soon as the last one started. They are
 * made once, at random, and kept in the database itself, in `app_private.role_passwords`: only the owner
 * (whose DATABASE_URL every machine already holds, and who could reset them anyway) can read that schema;
 * the app's roles have no USAGE on it. No extra secret to distribute, nothing derived from the owner's
 * password (which may rotate, or be a short-lived IAM token), and a restore of the database brings them
 * back. Called under PROVISION_LOCK, so two machines starting at once make them once.
 */
async function sharedPasswords(
  client: pg.ClientBase,
  names: RoleNames,
): Promise<{ web: string; worker: string }> {
  const saved = new Map<string, string>();
  for (const role of [names.web, names.worker]) {
    await client.query(
      `INSERT INTO app_private.role_passwords (role, password) VALUES ($1, $2) ON CONFLICT (role) DO NOTHING`,
      [role, randomBytes(18).toString('base64url')],
    );
  }
  const { rows } = await client.query<{ role: string; password: string }>(
    'SELECT role, password FROM app_private.role_passwords WHERE role = ANY($1)',
    [[names.web, names.worker]],
  );
  for (const row of rows) saved.set(row.role, row.password);
  const web = saved.get(names.web);
  const worker = saved.get(names.worker);
  if (!web || !worker) throw new Error("app_private.role_passwords lost the roles' passwords while starting");
  return { web, worker };
}

/** Creates the roles, or sets their password and attributes when they exist. The passwords: in DATA_DIR on
 * the embedded server (one machine), in the database when it is shared (see sharedPasswords). */
async function createRoles(
  client: pg.ClientBase,
  owner: Owner,
  names: RoleNames,
  source: { dataDir: string; shared: boolean },
) {
  const passwords = source.shared ? await sharedPasswords(client, names) : rolePasswords(source.dataDir);
  for (const [role, password] of [
    [names.web, passwords.web],
    [names.worker, passwords.worker],
  ] as const) {
    const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${literal(password)}`;
    try {
      await client.query(`${rowCount ? 'ALTER' : 'CREATE'} ROLE ${ident(role)} ${attributes}`);
    } catch (error) {
      // Another launcher created it a moment ago.
      if (!(error as { code?: string }).code?.startsWith('42710')) throw error;
      await client.query(`ALTER ROLE ${ident(role)} ${attributes}`);
    }
  }
  // The owner acts on the worker's tables in later migrations (ALTER TABLE findings …) as a member of it.
  if (!owner.superuser) {
    const grant = owner.version >= 160000 ? ' WITH INHERIT TRUE, SET TRUE' : '';
    await client.query(`GRANT ${ident(names.worker)} TO CURRENT_USER${grant}`);
  }
  return passwords;
}

/** Installs the queue's schema and queues as the owner: pg-boss creates a table per queue, which the
 * app's roles may not. They then start pg-boss against an installed, current schema. */
async function installQueue(ownerUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: ownerUrl, max: 1, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    for (const name of [...QUEUES, CRON_QUEUE]) await boss.createQueue(name);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** The tables (views) the worker owns: the partitioned bulk tables but the decision log, every partition
 * below them, and everything in its schema; scratch tables an older version left in public too. */
const workerTablesSql = `
WITH RECURSIVE tree AS (
  SELECT oid FROM pg_class
   WHERE relnamespace = 'public'::regnamespace AND relkind = 'p' AND NOT relispartition AND relname <> 'decision_log'
  UNION
  SELECT i.inhrelid FROM pg_inherits i JOIN tree t ON i.inhparent = t.oid
)
SELECT c.oid::regclass::text AS name, c.relkind AS kind, c.relnamespace = 'public'::regnamespace AS public
  FROM pg_class c
 WHERE c.relkind IN ('r', 'p', 'v')
   AND (c.oid IN (SELECT oid FROM tree) OR c.relnamespace = '${BULK_SCHEMA}'::regnamespace
        OR (c.relnamespace = 'public'::regnamespace
            AND (c.relname ~ '^reconcile_[a-z0-9]+_[0-9a-f]{32}$' OR c.relname ~ '^findings2_[0-9a-f]{32}$')))
   AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = $1)`;

/** Sets a role's search_path in this database unless it is set already (roles an operator made may be
 * beyond the owner's reach: then the operator is told the statement to run). */
async function setSearchPath(client: pg.ClientBase, database: string, role: string, path: string) {
  const { rows } = await client.query<{ config: string[] | null }>(
    `SELECT s.setconfig AS config FROM pg_db_role_setting s
      WHERE s.setrole = (SELECT oid FROM pg_roles WHERE rolname = $1)
        AND s.setdatabase = (SELECT oid FROM pg_database WHERE datname = $2)`,
    [role, database],
  );
  if (rows[0]?.config?.includes(`search_path=${path}`)) return;
  const sql = `ALTER ROLE ${ident(role)} IN DATABASE ${ident(database)} SET search_path = ${path}`;
  await client.query('SAVEPOINT search_path');
  try {
    await client.query(sql);
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT search_path');
    throw new Error(
      `could not set ${role}'s search_path (${(error as Error).message}); as a superuser, run: ${sql}`,
    );
  }
}

/** Gives the worker its tables, then every role exactly its rights on every table of public and pgboss. */
async function applyGrants(client: pg.ClientBase, owner: Owner, names: RoleNames): Promise<void> {
  const web = ident(names.web);
  const worker = ident(names.worker);
  const both = `${web}, ${worker}`;
  const run = (sql: string) => client.query(sql);
  await run('BEGIN');
  try {
    const { rows: toWorker } = await client.query<{ name: string; kind: string; public: boolean }>(
      workerTablesSql,
      [names.worker],
    );
    // A new owner needs CREATE on the table's schema; the worker gets it on public for this transaction only.
    const lend = !owner.superuser && toWorker.some((t) => t.public);
    if (lend) await run(`GRANT CREATE ON SCHEMA public TO ${worker}`);
    for (const t of toWorker)
      await run(`ALTER ${t.kind === 'v' ? 'VIEW' : 'TABLE'} ${t.name} OWNER TO ${worker}`);
    if (lend) await run(`REVOKE CREATE ON SCHEMA public FROM ${worker}`);

    await run(`GRANT USAGE ON SCHEMA public TO ${both}`);
    await run(`REVOKE CREATE ON SCHEMA public FROM ${both}`);
    await run(`GRANT USAGE, CREATE ON SCHEMA ${ident(BULK_SCHEMA)} TO ${worker}`);
    await run(`REVOKE ALL ON SCHEMA ${ident(BULK_SCHEMA)} FROM ${web}`);
    // The worker's tables are found (and new ones created) in its schema first; the web needs only public.
    await setSearchPath(client, owner.database, names.worker, `${BULK_SCHEMA}, public`);
    await setSearchPath(client, owner.database, names.web, 'public');

    const { rows: tables } = await client.query<{ name: string; relname: string; worker: boolean }>(
      `SELECT c.oid::regclass::text AS name, c.relname, c.relowner = (SELECT oid FROM pg_roles WHERE rolname = $1) AS worker
         FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition`,
      [names.worker],
    );
    const dml = 'SELECT, INSERT, UPDATE, DELETE';
    for (const t of tables) {
      // The worker keeps its owner's rights on its own tables (revoking them would only be undone by it).
      const grantees = t.worker ? web : both;
      await run(`REVOKE ALL ON ${t.name} FROM ${grantees}`);
      // Append-only for every role below the owner (and its triggers refuse UPDATE, DELETE, TRUNCATE too).
      if (t.relname === 'decision_log') await run(`GRANT SELECT, INSERT ON ${t.name} TO ${grantees}`);
      else if (t.relname === '_prisma_migrations') await run(`GRANT SELECT ON ${t.name} TO ${grantees}`);
      else await run(`GRANT ${dml} ON ${t.name} TO ${grantees}`);
    }
    await run(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${both}`);
    await run(`GRANT EXECUTE ON FUNCTION public.drop_audit_tables(uuid) TO ${both}`);
    await run(`GRANT EXECUTE ON FUNCTION public.create_decision_log_partition(uuid) TO ${worker}`);
    await run(`GRANT EXECUTE ON FUNCTION public.drop_decision_log_partition(uuid) TO ${worker}`);

    await run(`GRANT USAGE ON SCHEMA pgboss TO ${both}`);
    await run(`REVOKE ALL ON ALL TABLES IN SCHEMA pgboss FROM ${both}`);
    await run(`GRANT ${dml} ON ALL TABLES IN SCHEMA pgboss TO ${both}`);
    await run(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA pgboss TO ${both}`);
    await run(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA pgboss TO ${both}`);
    await run('COMMIT');
  } catch (error) {
    await run('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** Drops the tables of audits that no longer exist (a deletion whose drop gave up, see dropAuditTables). */
async function sweepDeletedAudits(client: pg.ClientBase, log: (message: string) => void): Promise<void> {
  const { rows } = await client.query<{ audit: string }>(
    `SELECT DISTINCT substring(c.relname FROM '([0-9a-f]{32})$')::uuid::text AS audit
       FROM pg_class c
      WHERE c.relnamespace IN ('public'::regnamespace, '${BULK_SCHEMA}'::regnamespace) AND c.relkind IN ('r', 'p', 'v')
        AND c.relname ~ '^(sitemap_entries|crawl_pages|findings2?|decision_log|reconcile_[a-z0-9]+)_[0-9a-f]{32}$'
        AND NOT EXISTS (SELECT 1 FROM audits a WHERE a.id = substring(c.relname FROM '([0-9a-f]{32})$')::uuid)`,
  );
  for (const { audit } of rows) {
    await client.query('SELECT public.drop_audit_tables($1)', [audit]);
    log(`dropped the tables left by deleted audit ${audit}`);
  }
}

/**
 * Makes the app's roles (or takes WEB_DATABASE_URL / WORKER_DATABASE_URL) and applies their rights, as the
 * owner at `ownerUrl`. The passwords of the roles made here are kept in `dataDir` (the embedded server), or
 * in the database when it is `shared` by several machines (DATABASE_URL).
 */
export async function provisionRoles(
  ownerUrl: string,
  options: { dataDir: string; shared?: boolean; log?: (message: string) => void },
): Promise<AppRoles> {
  const log = options.log ?? (() => {});
  const givenWeb = process.env.WEB_DATABASE_URL?.trim() || undefined;
  const givenWorker = process.env.WORKER_DATABASE_URL?.trim() || undefined;
  if (Boolean(givenWeb) !== Boolean(givenWorker)) {
    throw new Error('WEB_DATABASE_URL and WORKER_DATABASE_URL go together: set both, or neither');
  }
  // The session's advisory lock ends with the connection.
  return withConnection(ownerUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [PROVISION_LOCK]);
    // Under the lock: two machines installing pg-boss's queues at once on a fresh database deadlocked
    // (lib/db/shared-database.int.test.ts).
    await installQueue(ownerUrl);
    const owner = await ownerInfo(client);
    let roles: AppRoles;
    let names: RoleNames;
    if (givenWeb && givenWorker) {
      names = {
        web: userOf(givenWeb, 'WEB_DATABASE_URL'),
        worker: userOf(givenWorker, 'WORKER_DATABASE_URL'),
      };
      if (names.web === owner.user || names.worker === owner.user) {
        throw new Error('WEB_DATABASE_URL and WORKER_DATABASE_URL must name roles other than the owner');
      }
      const { rows } = await client.query<{ member: boolean }>(
        "SELECT $2::boolean OR pg_has_role(current_user, $1, 'MEMBER') AS member",
        [names.worker, owner.superuser],
      );
      if (!rows[0]?.member) {
        throw new Error(
          `${owner.user} must be a member of ${names.worker} to give it the bulk tables: GRANT ${names.worker} TO ${owner.user}`,
        );
      }
      roles = { webUrl: givenWeb, workerUrl: givenWorker, leastPrivilege: true };
    } else if (owner.superuser || owner.createRole) {
      names = roleNames(owner.database);
      const passwords = await createRoles(client, owner, names, {
        dataDir: options.dataDir,
        shared: options.shared ?? false,
      });
      roles = {
        webUrl: withCredentials(ownerUrl, names.web, passwords.web),
        workerUrl: withCredentials(ownerUrl, names.worker, passwords.worker),
        leastPrivilege: true,
      };
    } else {
      log(
        `WARNING: ${owner.user} may not create roles, so the app connects as the owner and can change the schema; ` +
          'create two roles and set WEB_DATABASE_URL and WORKER_DATABASE_URL (see README, Configuration)',
      );
      return { webUrl: ownerUrl, workerUrl: ownerUrl, leastPrivilege: false };
    }
    await applyGrants(client, owner, names);
    // A table that stays locked is tried again at the next start; it is no reason not to start.
    await sweepDeletedAudits(client, log).catch((error: Error) =>
      log(`could not drop the tables of deleted audits yet: ${error.message}`),
    );
    return roles;
  });
}
