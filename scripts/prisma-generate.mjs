// Runs `prisma generate` without Prisma's downloadable schema engine: generation only needs the
// bundled WebAssembly, but the CLI insists the engine binary exists, so point it at any file.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
if (!existsSync(cli)) {
  console.error('prisma-generate: the prisma package is not installed; run npm install first');
  process.exit(1);
}
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const result = spawnSync(process.execPath, [cli, 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
