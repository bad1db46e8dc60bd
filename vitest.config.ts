import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const alias = {
  '@': path.resolve(import.meta.dirname),
  // Tests run database modules outside Next's react-server build, where `server-only` is this empty file.
  'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
};

// The file order of `vitest run`: the files known to take longest start first. Without a results cache (a
// fresh checkout, as CI runs) Vitest starts the largest files first, and a slow file that happens to be short
// could start last and run alone while the other workers sit idle. With a cache, its durations order the
// rest as before. The list: the slowest files on the 2-core CI machine, slowest first, from the repository
// root; a file that grows slow belongs here (`npm test` prints the slowest tests at its end).
const SLOW_FILES = [
  'lib/worker/scale-out.int.test.ts',
  'lib/worker/worker.int.test.ts',
  'lib/crawler/crawl-resume.int.test.ts',
  'lib/crawler/crawl-step.int.test.ts',
  'lib/spot-check/budget.int.test.ts',
  'app/api/v1/fuzz.int.test.ts',
  'lib/gsc/import-budget.int.test.ts',
  'app/api/v1/sitemap-set-input.int.test.ts',
  'lib/report/report-bounds.int.test.ts',
  'lib/worker/outage.int.test.ts',
  'lib/audits/steps/ingest-limits.int.test.ts',
  'scripts/user.int.test.ts',
  'lib/hygiene/audit/cli-parity.int.test.ts',
  'lib/hygiene/cli.test.ts',
  'app/api/v1/sitemap-set.int.test.ts',
  'app/api/health/route.int.test.ts',
  'lib/audit-runs/jobs/schedule-worker.int.test.ts',
  'lib/db/shared-database.int.test.ts',
  'app/api/v1/auth/sign-in-limits.int.test.ts',
];

// A moved or renamed file would silently lose its place: say so instead.
for (const file of SLOW_FILES) {
  if (!existsSync(path.resolve(import.meta.dirname, file)))
    throw new Error(`vitest.config.ts: SLOW_FILES names ${file}, which does not exist`);
}

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at < 0 ? SLOW_FILES.length : at;
    };
    // Array.prototype.sort is stable: the files not listed keep the order Vitest gave them.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { alias },
  test: {
    // At least two files at once, also on a 2-core machine (Vitest's default there is one): integration
    // files mostly wait on Postgres, servers and worker processes, and each test worker has its own
    // database (lib/db/test-setup.ts), so they cannot meet each other's jobs or rows.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // The slowest files start first, so none of them is left running alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: [
            'lib/**/*.test.ts',
            'components/**/*.test.ts',
            'app/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // The benchmark's own peer install (scripts/bench/crawlee) brings packages with tests of their own.
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['lib/**/*.int.test.ts', 'app/**/*.int.test.ts', 'scripts/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['./lib/db/test-global-setup.ts'],
          setupFiles: ['./lib/db/test-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
