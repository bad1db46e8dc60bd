// Small helpers for ARIA attributes.

/** Space-separated ids for aria-describedby/labelledby, skipping empty ones; undefined when none are left. */
export function joinIds(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}
