'use client';
// The audits list's filters: a status and part of the name, both kept in the URL (shareable).
import { DebouncedInput } from '@/components/ui/debounced-input';
import { Field } from '@/components/ui/field';
import type { AuditListFilters } from '@/lib/audits/hooks';
import { statusLabel } from '@/lib/audits/labels';
import { AUDIT_STATUSES } from '@/lib/audits/schema';
import styles from './audit-list.module.css';

export function AuditListFiltersBar({
  filters,
  onChange,
}: {
  filters: AuditListFilters;
  onChange: (next: AuditListFilters) => void;
}) {
  return (
    <search className={styles.filters} aria-label="Filter audits">
      <Field label="Status" id="audit-status-filter" size="small">
        {(control) => (
          <select
            {...control}
            className="select select--small"
            value={filters.status ?? ''}
            onChange={(event) =>
              onChange({
                ...filters,
                status: (event.target.value || undefined) as AuditListFilters['status'],
              })
            }
          >
            <option value="">All statuses</option>
            {AUDIT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <DebouncedInput
        label="Search names"
        type="search"
        value={filters.q ?? ''}
        placeholder="Part of a name"
        onCommit={(q) => onChange({ ...filters, q: q || undefined })}
        className={styles.search}
      />
    </search>
  );
}
