import path from 'node:path';

// How a Node process that runs the project's server code outside Next starts: TypeScript through tsx,
// and the `react-server` export condition, under which `server-only` (the mark on every module that
// touches the database) is an empty module, as in Next's server build. The condition changes nothing
// else these processes load: of the installed packages only react, react-dom, client-only and
// react-redux have a react-server export, and neither the worker nor the scripts import them.
// package.json's scripts and the Playwright web server spell out the same flags.
export const SERVER_NODE_ARGS = ['--conditions=react-server', '--import', 'tsx'];

// The worker process runs plain JavaScript: scripts/worker.mjs bundles scripts/worker.ts
// (lib/core/bundle.mjs) and runs it, without tsx (about 36 MB less resident memory). gc() is exposed, so it
// collects its own garbage before it starts a thread with a heap of its own (lib/core/threads.ts) and the
// two peaks do not add up.
export const WORKER_NODE_ARGS = ['--conditions=react-server', '--expose-gc'];

/** The worker's launcher: `node ...WORKER_NODE_ARGS WORKER_SCRIPT` with WORKER_ENV starts a worker. */
export const WORKER_SCRIPT = path.join(import.meta.dirname, 'worker.mjs');

// And glibc's malloc held to two arenas: with its default (eight per core) each of the worker's threads
// (crawl, export reader, libuv's pool) kept freed memory in an arena of its own, about 15 MB of RSS in a
// crawl of 100,000 pages. Read when the process starts, so it is set by whoever spawns the worker.
export const WORKER_ENV = { MALLOC_ARENA_MAX: '2' };
