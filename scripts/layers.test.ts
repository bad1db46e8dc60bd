// The layers' direction is enforced, not remembered: lib/'s folders sit on floors (scripts/floors.ts) and
// import only downward and never round in a cycle (checked below over the whole tree), the project's Biome
// rules refuse the imports that would break the direction between app/, components/ and lib/, every module that touches the database is marked `server-only`, and every Node
// command that runs server code outside Next starts with the condition under which that mark is empty.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FLOORS } from './floors';

const root = path.resolve(import.meta.dirname, '..');
const biome = path.join(root, 'node_modules', '.bin', 'biome');

// ── Biome's import rules ─────────────────────────────────────────────────────────────────────────

// Biome lints nothing read from stdin (that mode only formats), so the probes are files in a scratch
// project that has this project's biome.json: the same includes, overrides and messages.
const project = mkdtempSync(path.join(os.tmpdir(), 'layers-'));
cpSync(path.join(root, 'biome.json'), path.join(project, 'biome.json'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function lintImport(file: string, specifier: string): { refused: boolean; output: string } {
  const full = path.join(project, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, `import * as probe from '${specifier}';\n\nexport const probed = probe;\n`);
  const result = spawnSync(
    biome,
    ['lint', '--vcs-enabled=false', '--only=style/noRestrictedImports', '--max-diagnostics=5', file],
    { cwd: project, encoding: 'utf8' },
  );
  rmSync(full);
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0 && !output.includes('noRestrictedImports')) throw new Error(output);
  return { refused: result.status !== 0, output };
}

describe('Biome refuses imports against the direction', () => {
  it.each([
    ['lib/x/data.ts', '@/components/ui/alert', /lib\/ never imports app\/ or components\//],
    ['lib/x/utils.ts', '@/app/providers', /lib\/ never imports app\/ or components\//],
    ['lib/x/service.ts', '@/lib/db/client', /Only lib\/db, lib\/\*\*\/data.ts/],
    ['lib/x/service.ts', 'pg', /Only lib\/db, lib\/\*\*\/data.ts/],
    ['components/x.tsx', '@/lib/db/client', /Only lib\/db, lib\/\*\*\/data.ts/],
    ['components/x.tsx', '@/lib/db/partitions', /components\/ never import the database layer/],
    ['components/ui/x.tsx', '@/lib/review/data', /components\/ never import the database layer/],
    ['components/x.tsx', '@/lib/review/export/data', /components\/ never import the database layer/],
    ['components/x.tsx', '@/lib/audits/mutations', /components\/ never import the database layer/],
    ['app/x/page.tsx', 'pg', /Only lib\/db, lib\/\*\*\/data.ts/],
    ['lib/hygiene/engine.ts', '@/lib/db/client', /lib\/hygiene is a pure layer/],
    ['lib/hygiene/data.ts', 'pg', /Only lib\/db, lib\/\*\*\/data.ts/],
    ['lib/hygiene/data.ts', '@/lib/review/data', /lib\/hygiene is a pure layer/],
    ['lib/hygiene/cli.ts', '@/lib/queue/queue', /lib\/hygiene is a pure layer/],
    ['lib/hygiene/cli.ts', 'server-only', /lib\/hygiene is a pure layer/],
    ['lib/hygiene/cli.ts', '@/app/providers', /lib\/ never imports app\/ or components\//],
  ])('%s importing %s', (file, specifier, message) => {
    const { refused, output } = lintImport(file, specifier);
    expect(refused).toBe(true);
    expect(output).toMatch(message);
  });

  it.each([
    ['lib/x/data.ts', 'pg'],
    ['lib/x/mutations.ts', '@/lib/db/client'],
    ['lib/x/utils.ts', '@/lib/findings/schema'],
    ['components/x.tsx', '@/lib/findings/chart-data'],
    ['app/x/page.tsx', '@/lib/review/data'],
    ['lib/x/flow.int.test.ts', '@/app/r/[token]/page'],
    ['lib/hygiene/engine.ts', '@/lib/sitemap/parse'],
    ['lib/hygiene/read-tree.ts', '@/lib/net/safe-fetch'],
    // The lint's run kind and its data are the one part of lib/hygiene with a database.
    ['lib/hygiene/audit/data.ts', '@/lib/db/client'],
  ])('but lets %s import %s', (file, specifier) => {
    expect(lintImport(file, specifier).refused).toBe(false);
  });
});

// ── server-only ──────────────────────────────────────────────────────────────────────────────────

/** Modules through which code reaches the database (as module ids: aliases and relative paths resolved). */
const DATABASE_MODULES = [
  /^pg$/,
  /^pg-copy-streams$/,
  /^@prisma\//,
  /^lib\/db\/(client|copy)$/,
  /^lib\/generated\/prisma\//,
];

/** The module ids a source imports at run time (type-only imports are erased, so they do not count). */
function runtimeImports(source: string, file: string): string[] {
  const found: string[] = [];
  const statement =
    /\b(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const match of source.matchAll(statement)) {
    const [, typeOnly, names = '', from, dynamic] = match;
    const specifier = from ?? dynamic;
    if (!specifier || typeOnly) continue;
    const braced = /^\{([\s\S]*)\}$/.exec(names.trim());
    const allTypes = braced?.[1]?.split(',').every((name) => !name.trim() || /^type\s/.test(name.trim()));
    if (allTypes) continue;
    if (specifier.startsWith('@/')) found.push(specifier.slice(2));
    else if (specifier.startsWith('.'))
      found.push(path.relative(root, path.resolve(path.dirname(file), specifier)));
    else found.push(specifier);
  }
  return found;
}

function touchesDatabase(source: string, file: string): boolean {
  return runtimeImports(source, file).some((id) => DATABASE_MODULES.some((db) => db.test(id)));
}

const hasServerOnly = (source: string) => /^import 'server-only';$/m.test(source);

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file))
    .filter((file) => !file.startsWith(path.join('lib', 'generated')));
}

describe('server-only', () => {
  it('tells database imports from others, type-only and relative ones included', () => {
    const file = path.join(root, 'lib', 'db', 'partitions.ts');
    expect(touchesDatabase("import { pool } from './client';", file)).toBe(true);
    expect(touchesDatabase("import {\n  db,\n  pool,\n} from '@/lib/db/client';", file)).toBe(true);
    expect(touchesDatabase("import { to as copyTo } from 'pg-copy-streams';", file)).toBe(true);
    expect(touchesDatabase("import { PrismaPg } from '@prisma/adapter-pg';", file)).toBe(true);
    expect(touchesDatabase("const { pool } = await import('@/lib/db/client');", file)).toBe(true);
    expect(touchesDatabase("import type pg from 'pg';", file)).toBe(false);
    expect(touchesDatabase("import { type Audit } from '@/lib/generated/prisma/client';", file)).toBe(false);
    expect(touchesDatabase("import { ingestLimits } from '@/lib/db/config';", file)).toBe(false);
    expect(touchesDatabase("import { pgTable } from 'pgx';", file)).toBe(false);
  });

  it('marks every module of lib/, app/ and components/ that touches the database', () => {
    const sources = ['lib', 'app', 'components'].flatMap(sourcesUnder);
    const touching = sources.filter((file) =>
      touchesDatabase(readFileSync(path.join(root, file), 'utf8'), path.join(root, file)),
    );
    // Not vacuous: the scan sees the client itself, reads, exports and writes.
    expect(touching).toEqual(
      expect.arrayContaining([
        'lib/db/client.ts',
        'lib/review/data.ts',
        'lib/review/export/data.ts',
        'lib/review/mutations.ts',
      ]),
    );
    const unmarked = touching.filter((file) => !hasServerOnly(readFileSync(path.join(root, file), 'utf8')));
    expect(unmarked).toEqual([]);
  });
});

// ── Node commands ────────────────────────────────────────────────────────────────────────────────

describe('Node commands that run server code', () => {
  it('start with the react-server condition, so that server-only modules load', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const playwright = readFileSync(path.join(root, 'playwright.config.ts'), 'utf8');
    const commands = [
      // Through tsx, or the worker's launcher (which bundles the worker and runs it without tsx).
      ...Object.values(scripts).filter((command) =>
        /^(?:[A-Z_]+=\S+ )*node .*(?:--import tsx scripts\/|scripts\/worker\.mjs)/.test(command),
      ),
      ...[...playwright.matchAll(/command: '(node [^']*scripts\/[^']*)'/g)].map((m) => m[1] as string),
    ];
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) expect(command).toContain('--conditions=react-server');
  });
});

// ── Floors of lib/ ───────────────────────────────────────────────────────────────────────────────

/** lib/'s folder of a module id ("lib/review/data" → "review"); files directly in lib/ have none. */
const folderOf = (id: string) => /^lib\/([^/]+)\//.exec(id)?.[1] ?? null;

interface Arrow {
  from: string;
  to: string;
  /** Where the import is, as "file → specifier" (the first few). */
  where: string[];
}

/** The runtime imports between lib/'s folders, from sources given as (root-relative path → text). */
function folderGraph(sources: ReadonlyMap<string, string>): Map<string, Arrow> {
  const arrows = new Map<string, Arrow>();
  for (const [file, source] of sources) {
    const from = folderOf(file);
    if (!from) continue;
    for (const id of runtimeImports(source, path.join(root, file))) {
      const to = folderOf(id);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, where: [] };
      if (arrow.where.length < 3) arrow.where.push(`${file} → ${id}`);
      arrows.set(key, arrow);
    }
  }
  return arrows;
}

/** Folders that reach each other (strongly connected components of more than one folder, Tarjan). */
function folderCycles(arrows: Iterable<Arrow>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of arrows) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to))
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** Every way the sources break the floors: a folder on no floor, an import up a floor, a cycle. */
function floorProblems(sources: ReadonlyMap<string, string>): string[] {
  const floorOf = new Map(FLOORS.flatMap((floor, level) => floor.folders.map((f) => [f, level] as const)));
  const problems: string[] = [];
  const folders = new Set([...sources.keys()].map(folderOf).filter((f) => f !== null));
  for (const folder of folders) {
    if (!floorOf.has(folder))
      problems.push(`lib/${folder} is on no floor: put it on one in scripts/floors.ts`);
  }
  const arrows = folderGraph(sources);
  for (const { from, to, where } of arrows.values()) {
    const [a, b] = [floorOf.get(from), floorOf.get(to)];
    if (a === undefined || b === undefined || b <= a) continue;
    problems.push(
      `lib/${from} (${FLOORS[a]?.name}) imports lib/${to} (${FLOORS[b]?.name}), a floor up: ${where.join('; ')}`,
    );
  }
  for (const cycle of folderCycles(arrows.values())) {
    const inside = [...arrows.values()].filter((x) => cycle.includes(x.from) && cycle.includes(x.to));
    problems.push(
      `lib/${cycle.join(', lib/')} import each other round in a cycle: ${inside
        .map((x) => `${x.from} -> ${x.to} (${x.where[0]})`)
        .join('; ')}`,
    );
  }
  return problems;
}

/** lib/'s product sources (tests may reach anywhere: they are not part of the product). */
function libSources(): Map<string, string> {
  return new Map(sourcesUnder('lib').map((file) => [file, readFileSync(path.join(root, file), 'utf8')]));
}

describe("lib/'s floors", () => {
  it('are kept by the tree: every folder on a floor, imports only downward, no folder cycles', () => {
    const sources = libSources();
    // Not vacuous: the graph sees the features reaching the core, the platform and each other.
    const arrows = folderGraph(sources);
    expect(arrows.has('review -> db')).toBe(true);
    expect(arrows.has('audit-runs -> sites')).toBe(true);
    expect(arrows.size).toBeGreaterThan(60);
    expect(floorProblems(sources)).toEqual([]);
  });

  it('catch an import up a floor', () => {
    const sources = libSources();
    sources.set(
      'lib/net/planted.ts',
      "import { REVIEW_COLUMNS } from '@/lib/review/columns';\nexport const x = REVIEW_COLUMNS;\n",
    );
    expect(floorProblems(sources)).toEqual([
      expect.stringMatching(
        /^lib\/net \(core\) imports lib\/review \(features\), a floor up: lib\/net\/planted\.ts/,
      ),
    ]);
  });

  it('catch folders of one floor that import each other', () => {
    const sources = libSources();
    // review is below gsc; a dynamic import back is a runtime import too.
    sources.set('lib/review/planted.ts', "export const load = () => import('@/lib/gsc/gaps');\n");
    const problems = floorProblems(sources);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /import each other round in a cycle: .*review -> gsc \(lib\/review\/planted\.ts/,
    );
  });

  it('see type-only imports as no import, and folders nobody placed', () => {
    const sources = libSources();
    sources.set('lib/net/types-only.ts', "import type { FindingDto } from '@/lib/findings/schema';\n");
    sources.set('lib/newcomer/x.ts', 'export const x = 1;\n');
    expect(floorProblems(sources)).toEqual([
      'lib/newcomer is on no floor: put it on one in scripts/floors.ts',
    ]);
  });
});
