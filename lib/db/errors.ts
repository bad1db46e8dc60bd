// Tells "the database is not there right now" (a restart, a crash the supervisor is repairing, a pool
// that cannot connect) from a bug, so the API can answer 503 with Retry-After instead of a 500: the client
// did nothing wrong and trying again shortly will work. Pure: it reads codes and messages only.

/** Node socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** SQLSTATE classes and codes of a server going away: 08 connection exceptions, 57P01–57P03 shutdown. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Prisma's codes for an unreachable server, a closed connection, a pool timeout. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
/** What the Prisma pg adapter calls an unreachable server or a cut connection (its `cause.kind`). */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/** What pg says when the server closed a connection without a code, and Postgres's own words for the
 * states of a restart (each 57P03, but a wrapper may keep only the words). */
const MESSAGES = [
  /Connection terminated/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode|not (yet )?accepting connections)/i,
  /timeout exceeded when trying to connect/i,
];

function isUnavailableCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  return SOCKET_CODES.has(code) || SQLSTATES.has(code) || PRISMA_CODES.has(code) || code.startsWith('08');
}

function looksUnavailable(error: object): boolean {
  const { code, originalCode, kind, message } = error as Record<string, unknown>;
  if (isUnavailableCode(code) || isUnavailableCode(originalCode)) return true;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  return typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error`, or an error it wraps (`cause`, AggregateError's `errors`, the adapter error a Prisma
 * 7 error carries in `meta.driverAdapterError`), says the database is unreachable or going away. Prisma
 * reports a refused start-up (57P03) as P2039 "Database error", with the SQLSTATE only in that adapter
 * error: measured against a real server shutting down and restarting (lib/db/restart.int.test.ts). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (looksUnavailable(error)) return true;
  const { cause, errors, meta } = error as { cause?: unknown; errors?: unknown; meta?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  const adapterError = (meta as { driverAdapterError?: unknown } | null | undefined)?.driverAdapterError;
  if (isDatabaseUnavailable(adapterError, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
