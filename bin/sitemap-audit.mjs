#!/usr/bin/env node
// The `sitemap-audit` command (package.json `bin`): runs the TypeScript CLI through tsx, in this process.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/hygiene/cli.ts');
const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exitCode = code;
