// Puts the health reads together and decides the status: unhealthy when the database does not answer or
// no worker has beaten recently (queued audits would wait for ever). Queue depth is reported, not judged.
import 'server-only';
import { pingDatabase, queueDepths, workerBeats } from './data';
import { liveWithinSeconds } from './settings';
import type { HealthReport } from './types';

export async function healthReport(): Promise<HealthReport> {
  const checkedAt = new Date().toISOString();
  const ping = await pingDatabase();
  if ('error' in ping) {
    return {
      status: 'unhealthy',
      problems: [`the database is ${ping.error === 'timeout' ? 'not answering' : 'unreachable'}`],
      checkedAt,
      database: { reachable: false, error: ping.error },
      queues: null,
      workers: null,
    };
  }
  const within = liveWithinSeconds();
  const [queues, beats] = await Promise.all([queueDepths(), workerBeats()]);
  const heartbeats = (beats ?? []).map((b) => ({ ...b, live: b.ageSeconds <= within }));
  const live = heartbeats.filter((b) => b.live).length;
  const problems: string[] = [];
  if (beats === null) problems.push('the worker heartbeats could not be read');
  else if (live === 0) problems.push(`no worker has sent a heartbeat in the last ${within} s`);
  return {
    status: problems.length ? 'unhealthy' : 'ok',
    problems,
    checkedAt,
    database: { reachable: true, latencyMs: ping.latencyMs },
    queues,
    workers: {
      live,
      liveWithinSeconds: within,
      beating: heartbeats.filter((b) => b.live).map(({ live: _live, ...b }) => b),
      heartbeats,
    },
  };
}
