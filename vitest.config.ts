import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': path.resolve(import.meta.dirname),
  // Tests run database modules outside Next's react-server build, where `server-only` is this empty file.
  'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // At least two files at once, also on a 2-core machine (Vitest's default there is one): integration
    // files mostly wait on Postgres, servers and worker processes, and each test worker has its own
    // database (lib/db/test-setup.ts), so they cannot meet each other's jobs or rows.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
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
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
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
