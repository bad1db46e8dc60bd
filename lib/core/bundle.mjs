// Bundles one of our TypeScript entry modules and everything of ours it imports into plain JavaScript
// (packages stay imports, resolved from the project's node_modules), for a process or thread that should
// not carry a TypeScript loader: through tsx the worker process idled at about 126 MB against 90 MB
// bundled, and each thread paid for a loader thread and transform caches of its own. Plain JavaScript
// (not TypeScript) so the worker's launcher (scripts/worker.mjs) runs it before anything is compiled.
import { createHash, randomUUID } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..', '..');
// Under node_modules, so the bundle's imports of packages resolve to the project's own.
const cacheDir = path.join(root, 'node_modules', '.cache', 'sitemap-audit-bundles');
// Bundles of changed sources are removed once unused this long (a bundle's directory is touched each time a
// process uses it; a process loads its chunks from there as it needs them).
const KEEP_MS = 7 * 24 * 3600 * 1000;
const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js' };

// Each module keeps its own location: import.meta.url and dirname are written in as the source file's,
// so files found next to a module (migrations, a thread's entry, Prisma's generated client) are found
// from the bundle as from the sources.
const ownLocation = {
  name: 'own-location',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: LOADERS[path.extname(args.path)] };
    });
  },
};

/**
 * The entry bundled into node_modules/.cache/sitemap-audit-bundles/<name>-<content hash>/<name>.js: named by
 * its content, so processes building the same code at once agree on it and changed sources never run a
 * stale bundle. Modules loaded with import() stay chunks of their own, loaded when asked for (the
 * renderer's playwright-core is not loaded by a crawl that does not render).
 * @param {URL} entry a .ts module of this project
 * @returns {Promise<URL>} the bundle's entry
 */
export async function bundle(entry) {
  const source = fileURLToPath(entry);
  const name = path.basename(source).replace(/\.[mc]?tsx?$/, '');
  const outdir = path.join(cacheDir, 'out');
  const result = await build({
    entryPoints: [source],
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    conditions: ['react-server'],
    entryNames: '[name]',
    outdir,
    // With --enable-source-maps, stack traces name the TypeScript sources.
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
    plugins: [ownLocation],
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = path.join(cacheDir, `${name}-${hash.digest('hex').slice(0, 16)}`);
  const staging = `${dir}.${randomUUID()}`;
  for (const file of result.outputFiles) {
    const target = path.join(staging, path.relative(outdir, file.path));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  try {
    renameSync(staging, dir);
  } catch {
    // The same bundle is there already (another process, or an earlier start).
    rmSync(staging, { recursive: true, force: true });
    const now = new Date();
    utimesSync(dir, now, now);
  }
  removeStale(name, dir);
  return pathToFileURL(path.join(dir, `${name}.js`));
}

function removeStale(name, current) {
  for (const entry of readdirSync(cacheDir)) {
    const other = path.join(cacheDir, entry);
    if (other === current || !entry.startsWith(`${name}-`)) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > KEEP_MS) rmSync(other, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
