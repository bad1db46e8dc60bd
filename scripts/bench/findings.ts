// Findings measurements: page latency over random filter + cursor requests, and a full CSV export
// through the real route handler.

import { randomUUID } from 'node:crypto';
import { GET as exportRoute } from '@/app/api/v1/audits/[id]/export/route';
import { createApiToken, createUser } from '@/lib/auth/mutations';
import { pool } from '@/lib/db/client';
import { type TFindingQuery, ZFindingQuery } from '@/lib/findings/schema';
import { encodeCursor } from '@/lib/review/cursor';
import { listFindings } from '@/lib/review/data';
import { seededRandom } from '@/lib/test-support/random';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface Sample {
  id: number;
  url: string;
  lastmod: Date | null;
  list: 'prune' | 'add' | 'held';
  reason: string;
  host: string;
  path: string;
}

/** p50/p95 of `count` random page requests (filters, sorts and deep cursors drawn from real rows). */
export async function measurePages(auditId: string, count = 200) {
  const { rows: samples } = await pool().query<Sample>(
    `SELECT id, url, lastmod, list, reason, host, path FROM findings TABLESAMPLE SYSTEM (2) WHERE audit_id = $1 LIMIT 2000`,
    [auditId],
  );
  const rnd = seededRandom(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const sorts = ['id', 'id', 'url', '-url', 'lastmod', '-lastmod'] as const;
  const timings: number[] = [];
  const kinds: Record<string, number> = {};
  const byKind: Record<string, number[]> = {};
  for (let i = 0; i < count; i++) {
    const s = pick(samples);
    const sort = pick([...sorts]);
    const query: Record<string, unknown> = { list: s.list, sort, limit: 100 };
    const r = rnd();
    if (r < 0.35) query.reason = s.reason;
    else if (r < 0.5) query.decision = 'pending';
    else if (r < 0.65) query.q = s.path.split('/').pop()?.slice(0, 6);
    else if (r < 0.75) query.host = s.host;
    else if (r < 0.85) query.pathPrefix = `/${s.path.split('/')[1]}/`;
    if (rnd() < 0.7) {
      const column = sort.replace('-', '');
      query.cursor = encodeCursor(
        column === 'id'
          ? { id: s.id }
          : { v: column === 'url' ? s.url : (s.lastmod?.toISOString() ?? null), id: s.id },
      );
    }
    const kind = ['reason', 'decision', 'q', 'host', 'pathPrefix'].find((k) => k in query) ?? 'list';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    const parsed: TFindingQuery = ZFindingQuery.parse(query);
    const started = performance.now();
    await listFindings(auditId, parsed);
    const elapsed = performance.now() - started;
    if (process.env.BENCH_DEBUG && elapsed > 100)
      console.log(
        'slow page',
        elapsed.toFixed(0),
        'ms',
        JSON.stringify({
          ...query,
          cursor: query.cursor ? Buffer.from(String(query.cursor), 'base64url').toString() : undefined,
        }),
      );
    timings.push(elapsed);
    const group = `${kind} ${sort}`;
    byKind[group] = [...(byKind[group] ?? []), elapsed];
  }
  const slowest = Object.entries(byKind)
    .map(([k, t]) => [k, Math.max(...t)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, ms]) => `${k}: ${ms.toFixed(0)} ms`);
  timings.sort((a, b) => a - b);
  return {
    requests: count,
    mix: kinds,
    p50Ms: Number(percentile(timings, 50).toFixed(1)),
    p95Ms: Number(percentile(timings, 95).toFixed(1)),
    maxMs: Number((timings[timings.length - 1] ?? 0).toFixed(1)),
    slowest,
  };
}

/** A full export of one list through the route handler, read to the end. */
export async function measureExport(auditId: string, list: 'prune' | 'add') {
  // The route handler authenticates like any API client: a viewer with an API token.
  const viewer = await createUser({
    email: `bench-${randomUUID()}@bench.example`,
    name: 'benchmark',
    role: 'viewer',
    password: randomUUID(),
  });
  const { token } = await createApiToken(viewer.id, 'benchmark');
  const started = performance.now();
  const res = await exportRoute(
    new Request(`http://bench/api/v1/audits/${auditId}/export?list=${list}&decision=all&format=csv`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ id: auditId }) },
  );
  if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
  let lines = 0;
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    rows: lines - 1,
    megabytes: Math.round(bytes / 1e5) / 10,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round((lines - 1) / seconds),
  };
}
