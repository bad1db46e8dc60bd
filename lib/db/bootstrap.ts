// Gets this process a migrated database: DATABASE_URL (the owner's) when set, else the embedded server in
// DATA_DIR; migrates it as the owner and provisions the app's roles (lib/db/roles.ts). A process handed a
// role's URL instead (a launcher's child) only checks that the schema is current.
import 'server-only';
import { dataDir } from './config';
import { withConnection } from './connection';
import { startEmbeddedPostgres } from './embedded';
import { listMigrations, migrate } from './migrate';
import { provisionRoles } from './roles';

export interface Database {
  /** The web server's URL (its role cannot change the schema; the decision log is INSERT/SELECT only). */
  url: string;
  /** The worker's URL (the web's rights, plus the per-audit partitions). */
  workerUrl: string;
  /** The owner's URL (migrations); null when this process was given a role's URL. */
  ownerUrl: string | null;
  embedded: boolean;
  stop(): Promise<void>;
}

export function migrateDatabase(url: string): Promise<string[]> {
  return withConnection(url, (client) => migrate(client));
}

/** For a role's URL: true when it may not migrate (no CREATE on public), after checking nothing is
 * pending, since only the owner can apply migrations. */
async function isAppRole(url: string): Promise<boolean> {
  return withConnection(url, async (client) => {
    const { rows } = await client.query<{ owner: boolean }>(
      "SELECT has_schema_privilege('public', 'CREATE') AS owner",
    );
    if (rows[0]?.owner) return false;
    const applied = await client
      .query<{ name: string }>(
        'SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      )
      .then((r) => new Set(r.rows.map((row) => row.name)))
      .catch(() => new Set<string>());
    const pending = listMigrations().filter((m) => !applied.has(m.name));
    if (pending.length > 0) {
      throw new Error(
        `the database needs ${pending.length} migration(s) (${pending[0]?.name}…) that this role may not apply: ` +
          "start the app with the owner's DATABASE_URL (npm start) first",
      );
    }
    return true;
  });
}

// Which database the first call found, so a later call in the same process (a supervisor restarting a
// stopped embedded server) goes the same way even though DATABASE_URL now holds a role's URL.
const globals = globalThis as typeof globalThis & {
  __sitemapAuditOwner?: { embedded: boolean; url: string };
};

/** Said at start rather than at the first key an admin uploads (lib/security/sealed.ts refuses then). */
function warnWithoutSharedKey(log: (message: string) => void): void {
  if (process.env.SITEMAP_AUDIT_DATABASE === 'shared' && !process.env.GSC_CREDENTIALS_KEY?.trim()) {
    log(
      'GSC_CREDENTIALS_KEY is not set: on a shared database (DATABASE_URL) Search Console keys and webhook ' +
        'secrets can be stored and read only with the same GSC_CREDENTIALS_KEY on every machine',
    );
  }
}

export async function ensureDatabase(log: (message: string) => void = () => {}): Promise<Database> {
  const first = globals.__sitemapAuditOwner;
  const given = first ? (first.embedded ? undefined : first.url) : process.env.DATABASE_URL;
  let ownerUrl: string;
  let embedded = false;
  let stop = async () => {};
  if (given) {
    if (!first && (await isAppRole(given))) {
      // A launcher's child inherits its launcher's answer; a role's URL given by an operator is shared.
      process.env.SITEMAP_AUDIT_DATABASE ??= 'shared';
      warnWithoutSharedKey(log);
      return { url: given, workerUrl: given, ownerUrl: null, embedded: false, stop };
    }
    ownerUrl = given;
  } else {
    const server = await startEmbeddedPostgres({ dataDir: dataDir(), log });
    if (!server.owned) log(`using the PostgreSQL server already running for ${dataDir()}`);
    ownerUrl = server.url;
    embedded = true;
    stop = server.stop;
  }
  globals.__sitemapAuditOwner = { embedded, url: ownerUrl };
  // What this process and its children run on (lib/db/config.ts usesSharedDatabase): children see only
  // a role's URL and cannot tell.
  process.env.SITEMAP_AUDIT_DATABASE = embedded ? 'embedded' : 'shared';
  warnWithoutSharedKey(log);
  const applied = await migrateDatabase(ownerUrl);
  for (const name of applied) log(`applied migration ${name}`);
  const roles = await provisionRoles(ownerUrl, { dataDir: dataDir(), shared: !embedded, log });
  // This process's own database work (a script, a worker started alone) runs as the worker, the app role
  // that can do everything the app does; a launcher hands `url` and `workerUrl` to its children.
  process.env.DATABASE_URL = roles.workerUrl;
  return { url: roles.webUrl, workerUrl: roles.workerUrl, ownerUrl, embedded, stop };
}
