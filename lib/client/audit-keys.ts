// The query keys of audits, in one place so every feature's hooks invalidate the same entries (a decision
// in the review refreshes the audit's counts). Browser-safe.
import type { TAuditListQuery } from '@/lib/audits/schema';

type AuditListFilters = Pick<TAuditListQuery, 'status' | 'q'>;

export const auditKeys = {
  all: ['audits'] as const,
  lists: () => ['audits', 'list'] as const,
  list: (filters: AuditListFilters, cursor: string | null) =>
    ['audits', 'list', filters.status ?? '', filters.q ?? '', cursor] as const,
  detail: (id: string) => ['audits', 'detail', id] as const,
  sitemaps: (id: string) => ['audits', 'detail', id, 'sitemaps'] as const,
};
