// Turns a findings filter into a parameterised WHERE clause (shared by pages, bulk decisions and export).
import type { TFindingFilter } from './schema';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** Escapes LIKE wildcards so user text matches literally. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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
  return { sql: where.join(' AND '), params };
}

/** True when the total can be read from finding_counts instead of counting rows. */
export function isCountable(filter: TFindingFilter): boolean {
  return !filter.q && !filter.pathPrefix;
}
