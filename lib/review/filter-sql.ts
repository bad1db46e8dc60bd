// Turns a findings filter into a parameterised WHERE clause (shared by pages, bulk decisions and export).

import { likeEscape } from '@/lib/core/text';
import type { TFindingFilter } from '@/lib/findings/schema';
import { columnConditions } from './columns';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** Every sitemap file declaring a row's key: file_ids holds them when there are several (the row's own
 * sitemap_file_id among them), else it is empty. One expression for the filter and its GIN index. */
export const declaringFiles = (alias = '') => `array_append(${alias}file_ids, ${alias}sitemap_file_id)`;

/** `f` is the findings alias; parameters are numbered from `first`. */
export function filterSql(auditId: string, filter: TFindingFilter, first = 1): SqlFragment {
  const params: unknown[] = [auditId, filter.list];
  const where = [`f.audit_id = $${first}`, `f.list = $${first + 1}`];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${first + params.length - 1}`));
  };
  if (filter.reason) add((n) => `f.reason = ${n}`, filter.reason);
  if (filter.decision) add((n) => `f.decision = ${n}`, filter.decision);
  if (filter.host) add((n) => `f.host = ${n}`, filter.host.toLowerCase());
  if (filter.pathPrefix) {
    const prefix = filter.pathPrefix.startsWith('/') ? filter.pathPrefix : `/${filter.pathPrefix}`;
    add((n) => `f.path LIKE ${n}`, `${likeEscape(prefix)}%`);
  }
  if (filter.q) add((n) => `f.url ILIKE ${n}`, `%${likeEscape(filter.q)}%`);
  // Containment, not = ANY: the review indexes' GIN indexes answer @>.
  if (filter.file !== undefined) add((n) => `${declaringFiles('f.')} @> ARRAY[${n}::int]`, filter.file);
  if (filter.signal) add((n) => `f.signals @> ARRAY[${n}::text]`, filter.signal);
  // The review's columns (verdict, Search Console state): closed lists written into the SQL, the audit
  // the parameter.
  where.push(...columnConditions(filter, `$${first}`));
  return { sql: where.join(' AND '), params };
}

/** The filter over finding_counts (no alias), for the filters it can answer (see isCountable); `reason`
 * is left out when `withReason` is false. */
export function countsFilterSql(auditId: string, filter: TFindingFilter, withReason = true): SqlFragment {
  const params: unknown[] = [auditId, filter.list];
  let sql = 'audit_id = $1 AND list = $2';
  if (withReason && filter.reason) sql += ` AND reason = $${params.push(filter.reason)}`;
  if (filter.decision) sql += ` AND decision = $${params.push(filter.decision)}`;
  if (filter.host) sql += ` AND host = $${params.push(filter.host.toLowerCase())}`;
  return { sql, params };
}

/** True when counts can be read from finding_counts (kept per list, reason, decision and host) instead of
 * counting rows (a verdict or a Search Console state is not among them). */
export function isCountable(filter: TFindingFilter): boolean {
  return (
    !filter.q &&
    !filter.pathPrefix &&
    filter.file === undefined &&
    !filter.signal &&
    columnConditions(filter, '$1').length === 0
  );
}

/**
 * A fragment with its parameters written in as literals, for statements that take none (COPY). Text goes
 * through `literal` (the connection's own escaping), numbers must be integers.
 */
export function inlineSql(fragment: SqlFragment, literal: (text: string) => string): string {
  return fragment.sql.replace(/\$(\d+)/g, (_match, digits: string) => {
    const value = fragment.params[Number(digits) - 1];
    if (typeof value === 'string') return literal(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new Error(`parameter $${digits} cannot be inlined`);
  });
}
