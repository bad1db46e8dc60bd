// A worker's heartbeat loop: beats at once, then every WORKER_HEARTBEAT_SECONDS. A failed beat (the
// database restarting) is logged once and retried at the next tick; it never stops the worker.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { beat, removeBeat, type WorkerIdentity } from './mutations';
import { heartbeatSeconds } from './settings';

export interface Heartbeat {
  id: string;
  /** os.hostname(): with many machines sharing one database, where this worker runs. */
  host: string;
  stop(): Promise<void>;
}

/** This process's identity as a worker: a random id (pids repeat across machines), its machine and pid. */
export function workerIdentity(concurrency: number): WorkerIdentity {
  return {
    id: `${process.pid}-${randomBytes(4).toString('hex')}`,
    host: os.hostname(),
    pid: process.pid,
    concurrency,
  };
}

export async function startHeartbeat(
  worker: WorkerIdentity,
  log: (message: string) => void,
): Promise<Heartbeat> {
  let failing = false;
  let pending: Promise<void> = Promise.resolve();
  const tick = () => {
    pending = beat(worker).then(
      () => {
        if (failing) log('heartbeat: the database answers again');
        failing = false;
      },
      (error: Error) => {
        if (!failing) log(`heartbeat failed (retrying every ${heartbeatSeconds()} s): ${error.message}`);
        failing = true;
      },
    );
    return pending;
  };
  await tick();
  const timer = setInterval(tick, heartbeatSeconds() * 1000);
  timer.unref();
  return {
    id: worker.id,
    host: worker.host,
    async stop() {
      clearInterval(timer);
      await pending;
      await removeBeat(worker.id).catch(() => {});
    },
  };
}
