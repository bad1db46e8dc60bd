import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { readExpectedSchema } from './schema-parity';

describe('migrations and schema.prisma', () => {
  const client = new pg.Client({ connectionString: testDatabaseUrls().owner });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it('describe the same tables, columns, types and nullability', async () => {
    const expected = readExpectedSchema();
    const { rows } = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      udt_name: string;
      is_nullable: string;
      element_type: string | null;
    }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable,
              (SELECT e.data_type FROM information_schema.element_types e
                WHERE e.object_schema = c.table_schema AND e.object_name = c.table_name
                  AND e.object_type = 'TABLE' AND e.collection_type_identifier = c.dtd_identifier) AS element_type
         FROM information_schema.columns c
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          -- per-audit partitions are created at run time; their parent is what the schema describes
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
          -- so are a running reconcile's working sets and staging table (lib/reconcile), dropped at its end
          AND table_name !~ '^(reconcile_[a-z]+_|findings2_)[0-9a-f]{32}$'
        ORDER BY table_name, ordinal_position`,
    );
    const actual = new Map<string, { name: string; type: string; nullable: boolean }[]>();
    for (const r of rows) {
      const list = actual.get(r.table_name) ?? [];
      list.push({
        name: r.column_name,
        type:
          r.data_type === 'USER-DEFINED'
            ? r.udt_name
            : r.data_type === 'ARRAY'
              ? `ARRAY of ${r.element_type}`
              : r.data_type,
        nullable: r.is_nullable === 'YES',
      });
      actual.set(r.table_name, list);
    }
    expect([...actual.keys()].sort()).toEqual([...expected.tables.keys()].sort());
    for (const [table, columns] of expected.tables) {
      const sortByName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect({ table, columns: [...(actual.get(table) ?? [])].sort(sortByName) }).toEqual({
        table,
        columns: [...columns].sort(sortByName),
      });
    }
  });

  it('declare the same enums', async () => {
    const expected = readExpectedSchema();
    const { rows } = await client.query<{ name: string; value: string }>(
      `SELECT t.typname AS name, e.enumlabel AS value FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
        WHERE t.typnamespace = 'public'::regnamespace
        ORDER BY t.typname, e.enumsortorder`,
    );
    const actual = new Map<string, string[]>();
    for (const r of rows) actual.set(r.name, [...(actual.get(r.name) ?? []), r.value]);
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected.enums));
  });

  it('are recorded in _prisma_migrations as Prisma records them', async () => {
    const { rows } = await client.query(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations WHERE rolled_back_at IS NULL',
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }
  });
});

describe('the schema reader', () => {
  it('fails loudly on a field it cannot type, so the parity check cannot silently skip columns', () => {
    expect(() => readExpectedSchema('model A {\n  id Weird\n}\n')).toThrow(/no Postgres type/);
  });
});
