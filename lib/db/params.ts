// Numbered placeholders for hand-written SQL, taken in the order values are added, so a long statement
// names its values where it uses them instead of counting positions.
export class SqlParams {
  readonly values: unknown[] = [];

  /** The placeholder (`$n`) of a new value. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A JSON value as a jsonb placeholder (null stays SQL NULL). */
  json(value: unknown): string {
    return `${this.add(value === null || value === undefined ? null : JSON.stringify(value))}::jsonb`;
  }
}
