// Every route under app/api/v1 (found on disk, so a new one is fuzzed at once) gets hostile path
// parameters, query values, JSON fields and whole bodies, one at a time beside valid values from
// fuzz-table.ts, from a signed-in admin: the answer must be below 500, and a 4xx in the error envelope.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteIdForHost } from '@/lib/audits/mutations';
import * as auditSchemas from '@/lib/audits/schema';
import { createApiToken, createShare, createUser } from '@/lib/auth/mutations';
import * as authSchemas from '@/lib/auth/schema';
import { pool } from '@/lib/db/client';
import * as findingSchemas from '@/lib/findings/schema';
import { credentialsOf } from '@/lib/gsc/inspection/data';
import { insertInspectionRun } from '@/lib/gsc/inspection/mutations';
import { setCredentials } from '@/lib/gsc/inspection-service';
import { insertGscImport } from '@/lib/gsc/mutations';
import { stopBoss } from '@/lib/queue/queue';
import * as sitemapSetSchemas from '@/lib/sitemap-set/schema';
import { insertSchedule } from '@/lib/sites/schedules/mutations';
import * as siteSchemas from '@/lib/sites/schema';
import { insertWebhook } from '@/lib/sites/webhooks/mutations';
import { insertSpotCheckRun } from '@/lib/spot-check/mutations';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { BOUNDARY, MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import {
  type BodySpec,
  type Fixtures,
  fuzzGscKey,
  type Method,
  type RouteSpec,
  routeTable,
} from './fuzz-table';

afterAll(() => stopBoss());

const V1 = import.meta.dirname;
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ORIGIN = 'http://localhost';

// ── Hostile values ───────────────────────────────────────────────────────────────────────────────────

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Text for path and query values (each is also sent percent-encoded by URLSearchParams). */
const HOSTILE_TEXT: [string, string][] = [
  ['NUL', '\u0000'],
  ['NUL inside', 'a\u0000b'],
  ['lone surrogate', '\ud800'],
  ['1e6 chars', 'x'.repeat(1_000_000)],
  ['5,000 chars', 'x'.repeat(5_000)],
  ['empty', ''],
  ['space', ' '],
  ['-1', '-1'],
  ['0', '0'],
  ['1.5', '1.5'],
  ['2^31', '2147483648'],
  ['99999999999', '99999999999'],
  ['2^53+1', '9007199254740993'],
  ['1e3', '1e3'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['[]', '[]'],
  ['{}', '{}'],
  ['SQL', "' OR 1=1; DROP TABLE findings; --"],
  ['LIKE wildcards', '%_\\'],
  ['path', '../../etc/passwd'],
  ['uuid zero', '00000000-0000-0000-0000-000000000000'],
  ['uuid upper', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF'],
  ['cursor id 2^31', cursorOf({ id: 2 ** 31 })],
  ['cursor id 2^53+1', cursorOf({ id: 2 ** 53 + 1 })],
  ['cursor v NUL', cursorOf({ v: 'a\u0000', id: 1 })],
  ['cursor v Feb 31', cursorOf({ v: '2026-02-31T00:00:00.000Z', id: 1 })],
  ['cursor v "1"', cursorOf({ v: '1', id: 1 })],
  ['cursor v 2^31', cursorOf({ v: 2 ** 31, id: 1 })],
  ['cursor v object', cursorOf({ v: { a: 1 }, id: 1 })],
  ['cursor array', cursorOf([1, 2])],
];

/** What a parameter gets: cursors only where a cursor goes; an unknown parameter (which only the
 * route()-level check reads) what that check refuses. */
function hostileFor(name: string): [string, string][] {
  if (name === 'unknown')
    return HOSTILE_TEXT.filter(([label]) => /^(NUL|lone surrogate|1e6 chars)$/.test(label));
  return name === 'cursor' ? HOSTILE_TEXT : HOSTILE_TEXT.filter(([label]) => !label.startsWith('cursor'));
}

/** Values for JSON fields (at each leaf and each object of a valid body). */
const HOSTILE_JSON: [string, unknown][] = [
  // Of the text values, those a JSON field can hold that its type might not expect.
  ...HOSTILE_TEXT.filter(([label]) =>
    [
      'NUL',
      'NUL inside',
      'lone surrogate',
      '1e6 chars',
      '5,000 chars',
      'empty',
      '-1',
      '2^31',
      'NaN',
      'SQL',
    ].includes(label),
  ),
  ['number 2^31', 2 ** 31],
  ['number 2^53+1', 2 ** 53 + 1],
  ['number -1', -1],
  ['number 0', 0],
  ['number 1.5', 1.5],
  ['number 1e308', 1e308],
  ['true', true],
  ['null', null],
  ['array', []],
  ['array of strings', ['a', '\u0000']],
  ['array of 2^31', [2 ** 31]],
  ['object', {}],
  ['object for number', { n: 1 }],
  ['nested 10', nested(10, 'x')],
  ['nested 40', nested(40, 'x')],
];

/** The valid value with something appended: a NUL inside a real URL or host passes a URL check. */
const spoiled = (valid: unknown): [string, string][] =>
  typeof valid === 'string'
    ? [
        ['valid + NUL', `${valid}\u0000`],
        ['valid + lone surrogate', `${valid}\udc00`],
      ]
    : [];

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** Whole bodies, for every handler that takes one. */
const HOSTILE_BODIES: [string, BodyInit, string][] = [
  ['empty body', '', 'application/json'],
  ['not JSON', '{oops', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['JSON array', '[]', 'application/json'],
  ['JSON string', '"x"', 'application/json'],
  ['JSON 1e309', '1e309', 'application/json'],
  ['100,000-deep array', deep(100_000), 'application/json'],
  ['50,000-deep object', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`, 'application/json'],
  ['NUL in a key', '{"\\u0000":1}', 'application/json'],
  ['lone surrogate in a key', '{"\\udc00":1}', 'application/json'],
  ['2 MB body', JSON.stringify({ name: 'x'.repeat(2_000_000) }), 'application/json'],
  ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'],
  ['text/plain', '{"name":"x"}', 'text/plain'],
  ['application/xml', '<x/>', 'application/xml'],
  ['urlencoded', 'a=b&c=%00', 'application/x-www-form-urlencoded'],
  ['multipart without boundary', multipartBody(part('name', 'x')), 'multipart/form-data'],
  ['multipart, other boundary', multipartBody(part('name', 'x')), 'multipart/form-data; boundary=other'],
  [
    'multipart truncated',
    multipartBody(part('sitemap', 'x'.repeat(500), 's.xml')).subarray(0, 300),
    MULTIPART,
  ],
  ['multipart bad header', `--${BOUNDARY}\r\nnonsense\r\n\r\nx\r\n--${BOUNDARY}--\r\n`, MULTIPART],
];

// ── Routes on disk and what they read ────────────────────────────────────────────────────────────────

interface RouteFile {
  key: string;
  source: string;
  params: string[];
  module: Partial<Record<Method, (request: Request, context: unknown) => Promise<Response>>>;
}

const routeFiles: RouteFile[] = [];
for (const file of readdirSync(V1, { recursive: true, encoding: 'utf8' })) {
  if (path.basename(file) !== 'route.ts') continue;
  const key = path.dirname(file).split(path.sep).join('/');
  const params = key.split('/').flatMap((segment) => {
    const match = /^\[([A-Za-z]+)\]$/.exec(segment);
    if (segment.startsWith('[') && !match) throw new Error(`${key}: the fuzz test cannot fill "${segment}"`);
    return match?.[1] ? [match[1]] : [];
  });
  const source = readFileSync(path.join(V1, file), 'utf8');
  routeFiles.push({ key, source, params, module: await import(path.join(V1, file)) });
}
routeFiles.sort((a, b) => a.key.localeCompare(b.key));

const SCHEMAS: Record<string, unknown> = {
  ...auditSchemas,
  ...authSchemas,
  ...findingSchemas,
  ...sitemapSetSchemas,
  ...siteSchemas,
};

/** The query parameters a route's source reads: `….get('x')` (`getAll`, `has`) on search params, and
 * the fields of a zod schema parsed from `Object.fromEntries(…searchParams)`. */
function queryParamsRead(route: RouteFile): string[] {
  const names = new Set<string>();
  for (const match of route.source.matchAll(/(?<!headers)\.(?:get|getAll|has)\('([^']+)'\)/g)) {
    names.add(match[1] as string);
  }
  for (const match of route.source.matchAll(/(Z\w+)\.parse\(\s*Object\.fromEntries\(/g)) {
    const schema = SCHEMAS[match[1] as string] as { shape?: Record<string, unknown> } | undefined;
    if (!schema?.shape) throw new Error(`${route.key}: cannot tell which fields ${match[1]} has`);
    for (const name of Object.keys(schema.shape)) names.add(name);
  }
  if (route.source.includes('searchParams') && names.size === 0) {
    throw new Error(`${route.key}: reads search params in a way the fuzz test cannot see`);
  }
  return [...names].sort();
}

function methodsOf(route: RouteFile): Method[] {
  return METHODS.filter((method) => typeof route.module[method] === 'function');
}

// ── Fixtures ─────────────────────────────────────────────────────────────────────────────────────────

let fx: Fixtures;
let table: Record<string, RouteSpec>;

beforeAll(async () => {
  const locs: string[] = [];
  const crawl: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const url = `https://${i % 2 ? 'a' : 'b'}.example/${i % 4 ? 'shop' : 'blog'}/item-${i}`;
    locs.push(url);
    if (i % 3)
      crawl.push(
        JSON.stringify({
          url,
          status: i % 5 ? 200 : 404,
          depth: i % 4,
          inlinks: i,
          crawled_at: '2026-11-01T00:00:00Z',
        }),
      );
  }
  const xml = urlsetXml(locs).replace(/<\/loc>/g, '</loc><lastmod>2026-10-01</lastmod>');
  const auditId = await reconciledAuditOf('Fuzz', {
    sitemaps: { 'a.xml': xml, 'b.xml': urlsetXml(locs.slice(0, 9)) },
    crawl,
  });
  const spareAuditId = await reconciledAuditOf('Fuzz spare', {
    sitemaps: { 's.xml': urlsetXml(locs.slice(0, 3)) },
    crawl: [],
  });
  const finding = await pool().query<{ id: number }>(
    "SELECT min(id) AS id FROM findings WHERE audit_id = $1 AND list = 'prune'",
    [auditId],
  );
  const file = await pool().query<{ id: number }>(
    'SELECT min(id) AS id FROM sitemap_files WHERE audit_id = $1',
    [auditId],
  );
  const password = 'a long enough password';
  const user = await createUser({
    email: `victim-${auditId}@fuzz.example`,
    name: 'Victim',
    role: 'viewer',
    password,
  });
  const token = await createApiToken(user.id, 'victim');
  const share = await createShare(auditId, user.id, null);
  const spotCheckRunId = randomUUID();
  await insertSpotCheckRun(
    spotCheckRunId,
    auditId,
    { sample: 5, seed: 1, includeAdd: false, ignoreRobots: false },
    'fuzz',
  );
  const gscImportId = randomUUID();
  await insertGscImport(gscImportId, auditId, [], 'fuzz');
  await setCredentials(auditId, { property: 'sc-domain:a.example', key: fuzzGscKey }, 'fuzz');
  const gscInspectionRunId = randomUUID();
  const gscKey = await credentialsOf(auditId);
  await insertInspectionRun(
    gscInspectionRunId,
    auditId,
    gscKey?.id ?? '',
    'sc-domain:a.example',
    { sample: 5, seed: 1 },
    'fuzz',
  );
  const login = await createUser({
    email: `login-${auditId}@fuzz.example`,
    name: 'Login',
    role: 'viewer',
    password,
  });

  const { GET: listFindings } = await import('./audits/[id]/findings/route');
  const viewer = await testCaller('viewer');
  const cursors = {} as Fixtures['cursors'];
  for (const sort of ['id', '-lastmod', 'url', 'status', '-inlinks'] as const) {
    const res = await listFindings(
      viewer.request(`${ORIGIN}/api/v1/audits/${auditId}/findings?list=prune&limit=1&sort=${sort}`),
      { params: Promise.resolve({ id: auditId }) },
    );
    cursors[sort] = (await res.json()).nextCursor;
    expect(cursors[sort], `a second page for sort=${sort}`).toEqual(expect.any(String));
  }
  // The fixture audit's URLs are on a.example, a host other test files audit too: its site gets the fuzz's
  // settings (a valid `true` makes approving unconfirmed rows refused), schedules, webhooks and queued runs.
  // So the fuzz works on a site of its own, and the audit is moved into it.
  const siteId = await siteIdForHost(`fuzz-${randomUUID().slice(0, 8)}.example`);
  await pool().query('UPDATE audits SET site_id = $2 WHERE id = $1', [auditId, siteId]);
  const schedule = await insertSchedule({
    siteId,
    cadence: 'daily',
    cron: '0 3 * * *',
    timezone: 'UTC',
    enabled: false,
    fromAuditId: null,
    nextRunAt: null,
    createdBy: 'fuzz',
  });
  const webhook = await insertWebhook(
    siteId,
    'https://hooks.a.example/fuzz',
    'a fuzz secret of length',
    'fuzz',
  );
  fx = {
    auditId,
    siteId,
    scheduleId: schedule.id,
    webhookId: webhook.id,
    spareAuditId,
    findingId: finding.rows[0]?.id ?? 0,
    sitemapFileId: file.rows[0]?.id ?? 0,
    cursors,
    userId: user.id,
    tokenId: token.id,
    shareId: share.id,
    spotCheckRunId,
    gscImportId,
    gscInspectionRunId,
    loginEmail: login.email,
    password,
  };
  table = routeTable(fx);
}, 120_000);

// ── Calls ────────────────────────────────────────────────────────────────────────────────────────────

interface Call {
  route: string;
  method: Method;
  /** What is hostile in this call (`query q = NUL`), or `valid` for the baseline. */
  what: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  body?: { data: BodyInit; type: string };
}

interface Outcome {
  call: Call;
  status: number;
  detail: string;
}

function urlOf(call: Call): string {
  const search = call.query ? `?${new URLSearchParams(call.query)}` : '';
  return `${ORIGIN}/api/v1/${call.route}${search}`;
}

async function send(caller: TestCaller, route: RouteFile, call: Call): Promise<Outcome> {
  const handler = route.module[call.method];
  if (!handler) throw new Error(`${call.route} has no ${call.method}`);
  const init: RequestInit & { duplex?: 'half' } = { method: call.method };
  if (call.body) {
    init.body = call.body.data;
    init.headers = { 'content-type': call.body.type };
    init.duplex = 'half';
  }
  let status: number;
  let detail = '';
  try {
    const res = await handler(caller.request(urlOf(call), init), { params: Promise.resolve(call.params) });
    status = res.status;
    // Read every answer whole: a streamed export holds a database connection until it is.
    const text = await res.text();
    if (status >= 400) {
      const envelope = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
      if (typeof envelope.error?.code !== 'string' || typeof envelope.error.message !== 'string') {
        throw new Error(`no error envelope: ${text.slice(0, 100)}`);
      }
      detail = `${envelope.error.code}: ${envelope.error.message}`.slice(0, 120);
    }
  } catch (error) {
    status = 599;
    detail = `threw or broke the envelope: ${(error as Error).message}`.slice(0, 120);
  }
  return { call, status, detail };
}

function setAt(body: unknown, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of at.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[at.at(-1) as string | number] = value;
  return copy;
}

/** Every leaf and every object or array below the root: where a hostile value goes. */
function placesIn(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  const below = children.flatMap(([key, v]) => placesIn(v, [...at, key]));
  return at.length ? [at, ...below] : below;
}

/** The calls for one handler: its baseline, then one hostile value at a time. */
function callsFor(route: RouteFile, method: Method, spec: RouteSpec): Call[] {
  const base = { route: route.key, method };
  const params = spec.params?.(method) ?? {};
  const queries = method === 'GET' ? (spec.query ?? [{}]) : [{}];
  const bodySpec: BodySpec | null | undefined = spec.body?.[method];
  const jsonOf = (data: unknown) => ({ data: JSON.stringify(data), type: 'application/json' });
  const validBody = bodySpec ? jsonOf(bodySpec.valid[0]) : undefined;
  const calls: Call[] = [{ ...base, what: 'valid', params, query: queries[0], body: validBody }];

  for (const name of route.params) {
    for (const [label, value] of [...hostileFor(name), ...spoiled(params[name])]) {
      calls.push({
        ...base,
        what: `path ${name} = ${label}`,
        params: { ...params, [name]: value },
        query: queries[0],
        body: validBody,
      });
    }
  }
  // The first query is fuzzed at every parameter, the others only where they differ from it (a sort and
  // its cursor, an export format); handlers without a query get the route()-level check, without a body.
  const first = queries[0] ?? {};
  for (const query of queries) {
    const names = Object.keys(query).filter((name) => query === first || query[name] !== first[name]);
    if (query === first) names.push('unknown');
    for (const name of names) {
      for (const [label, value] of [...hostileFor(name), ...spoiled(query[name])]) {
        calls.push({
          ...base,
          what: `query ${name} = ${label}`,
          params,
          query: { ...query, [name]: value },
          body: method === 'GET' ? undefined : { data: '', type: 'application/json' },
        });
      }
    }
  }
  if (bodySpec !== undefined) {
    for (const [label, data, type] of HOSTILE_BODIES) {
      calls.push({ ...base, what: `body: ${label}`, params, query: queries[0], body: { data, type } });
    }
  }
  for (const valid of bodySpec?.valid ?? []) {
    for (const at of placesIn(valid)) {
      const here = at.reduce<unknown>(
        (node, step) => (node as Record<string | number, unknown>)[step],
        valid,
      );
      for (const [label, value] of [...HOSTILE_JSON, ...spoiled(here)]) {
        calls.push({
          ...base,
          what: `body ${at.join('.')} = ${label}`,
          params,
          body: jsonOf(setAt(valid, at, value)),
        });
      }
    }
  }
  const multipart = spec.multipart?.[method];
  if (multipart) {
    // A file name goes as RFC 5987 `filename*` (percent-encoded UTF-8), which can carry a NUL; a lone
    // surrogate has no UTF-8 form, so it goes as the bytes of one.
    const starName = (name: string) => {
      try {
        return `; filename*=utf-8''${encodeURIComponent(name)}`;
      } catch {
        return "; filename*=utf-8''%ED%A0%80.xml";
      }
    };
    const build = (fields: Record<string, string>, fileName?: string) => ({
      data: multipartBody(
        ...Object.entries(fields).map(([name, value]) => part(name, value)),
        ...multipart.files.map((f) =>
          fileName === undefined
            ? part(f.field, f.content, f.name)
            : part(f.field, f.content, f.name, starName(fileName)),
        ),
      ),
      type: MULTIPART,
    });
    calls.push({ ...base, what: 'multipart valid', params, body: build(multipart.fields) });
    for (const [name, valid] of Object.entries(multipart.fields)) {
      for (const [label, value] of [...hostileFor(name), ...spoiled(valid)]) {
        calls.push({
          ...base,
          what: `multipart ${name} = ${label}`,
          params,
          body: build({ ...multipart.fields, [name]: value }),
        });
      }
    }
    for (const [label, value] of [...hostileFor('file'), ...spoiled('sitemap.xml')]) {
      calls.push({
        ...base,
        what: `multipart file name = ${label}`,
        params,
        body: build(multipart.fields, value),
      });
    }
  }
  return calls;
}

// ── Tests ────────────────────────────────────────────────────────────────────────────────────────────

describe('the fuzz table covers every route', () => {
  it('finds the routes on disk', () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(20);
    expect(routeFiles.map((r) => r.key)).toContain('audits/[id]/findings');
  });

  it('lists every route, every query parameter it reads and every body field it parses', () => {
    const problems: string[] = [];
    for (const route of routeFiles) {
      const spec = table[route.key];
      if (!spec) {
        problems.push(`${route.key}: not in fuzz-table.ts`);
        continue;
      }
      const listed = new Set((spec.query ?? []).flatMap((q) => Object.keys(q)));
      const missing = queryParamsRead(route).filter((name) => !listed.has(name));
      if (missing.length)
        problems.push(`${route.key}: query parameters not in the table: ${missing.join(', ')}`);
      for (const method of methodsOf(route)) {
        if (method === 'GET' || method === 'DELETE') continue;
        const body = spec.body?.[method];
        if (body === undefined) {
          problems.push(`${route.key} ${method}: say which body it takes (or null for none)`);
          continue;
        }
        if (body === null) continue;
        const given = new Set(body.valid.flatMap((v) => Object.keys(v)));
        const fields = Object.keys(body.schema.shape).filter((name) => !given.has(name));
        if (fields.length)
          problems.push(`${route.key} ${method}: body fields not in the table: ${fields.join(', ')}`);
      }
      for (const name of route.params) {
        for (const method of methodsOf(route)) {
          if (spec.params?.(method)[name] === undefined)
            problems.push(`${route.key} ${method}: no valid "${name}"`);
        }
      }
    }
    for (const key of Object.keys(table)) {
      if (!routeFiles.some((r) => r.key === key)) problems.push(`${key}: in fuzz-table.ts but no such route`);
    }
    expect(problems).toEqual([]);
  });

  it('knows what a route reads from its source', () => {
    const findings = routeFiles.find((r) => r.key === 'audits/[id]/findings') as RouteFile;
    expect(queryParamsRead(findings)).toEqual(
      expect.arrayContaining(['cursor', 'q', 'sort', 'limit', 'pathPrefix']),
    );
    const sitemaps = routeFiles.find((r) => r.key === 'audits/[id]/sitemaps') as RouteFile;
    expect(queryParamsRead(sitemaps)).toEqual(['cursor', 'limit']);
  });
});

describe('hostile input never gets a 500', () => {
  it('every handler answers every hostile value below 500, in the error envelope', async () => {
    const outcomes: Outcome[] = [];
    // Each route has a caller of its own (the password and token routes change theirs). Calls go in
    // chunks, four at a time; DELETEs only once everything else is done (they remove rows others read).
    type Task = { route: RouteFile; caller: TestCaller; calls: Call[] };
    const phases: Task[][] = [[], []];
    for (const route of routeFiles) {
      const caller = await testCaller('admin');
      for (const method of methodsOf(route)) {
        const calls = callsFor(route, method, table[route.key] ?? {});
        for (let i = 0; i < calls.length; i += 60) {
          phases[method === 'DELETE' ? 1 : 0]?.push({ route, caller, calls: calls.slice(i, i + 60) });
        }
      }
    }
    for (const tasks of phases) {
      const worker = async () => {
        for (let task = tasks.shift(); task; task = tasks.shift()) {
          for (const call of task.calls) outcomes.push(await send(task.caller, task.route, call));
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
    }

    const failures = outcomes
      .filter((o) => o.status >= 500)
      .map((o) => `${o.status} ${o.call.method} ${o.call.route} · ${o.call.what} → ${o.detail}`);
    if (failures.length) console.error(`Fuzz failures (${failures.length}):\n${failures.join('\n')}`);
    expect(failures).toEqual([]);

    // Not vacuous: the valid calls got through (every GET answers 200 with the table's values), and the
    // hostile ones were answered, mostly refused.
    const valid = outcomes.filter((o) => o.call.what === 'valid' && o.call.method === 'GET');
    expect(
      valid.filter((o) => o.status !== 200).map((o) => `${o.call.route} ${o.status} ${o.detail}`),
    ).toEqual([]);
    expect(valid.length).toBeGreaterThanOrEqual(12);
    const refused = outcomes.filter((o) => o.status >= 400).length;
    expect(outcomes.length).toBeGreaterThan(3000);
    expect(refused / outcomes.length).toBeGreaterThan(0.5);
    console.info(`fuzz: ${outcomes.length} calls, ${refused} refused with 4xx, ${failures.length} failures`);
  }, 120_000);
});
