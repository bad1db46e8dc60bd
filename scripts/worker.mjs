// `npm run worker` and the worker `npm start` starts: scripts/worker.ts bundled into plain JavaScript
// (lib/core/bundle.mjs) and run in this process, so the worker carries no TypeScript loader (about 36 MB
// less resident memory). Run as `node --conditions=react-server --expose-gc scripts/worker.mjs` with
// MALLOC_ARENA_MAX=2 (scripts/node-args.ts says why).
import { bundle } from '../lib/core/bundle.mjs';

await import((await bundle(new URL('./worker.ts', import.meta.url))).href);
