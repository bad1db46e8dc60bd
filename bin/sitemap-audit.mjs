#!/usr/bin/env node
// The `sitemap-audit` command (package.json `bin`): runs the TypeScript CLI through tsx, in this process.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The repo's tsconfig by path, not the one tsx would look for from the caller's folder: the `@/` imports
// must resolve wherever a pipeline runs the command from.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../lib/hygiene/cli.ts');
const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exitCode = code;
