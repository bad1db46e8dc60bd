// Entry of a worker thread whose bundle could not be written (threads.ts): Node 20 does not apply
// `--import tsx` inside a worker, so the thread registers tsx itself and then loads its TypeScript module
// (workerData.entry).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
