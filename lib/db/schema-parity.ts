// Reads the models of prisma/schema.prisma into expected Postgres tables/columns, so a test can prove
// the hand-written SQL migrations and the Prisma schema describe the same database.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const schemaPath = path.resolve(import.meta.dirname, '..', '..', 'prisma', 'schema.prisma');

export interface ExpectedColumn {
  name: string;
  /** information_schema data_type, or the enum's name for enums */
  type: string;
  nullable: boolean;
}

export interface ExpectedSchema {
  tables: Map<string, ExpectedColumn[]>;
  enums: Map<string, string[]>;
}

const SCALARS: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Decimal: 'numeric',
  Bytes: 'bytea',
};

const NATIVE: Record<string, string> = {
  Uuid: 'uuid',
  Real: 'real',
  Timestamptz: 'timestamp with time zone',
  Timestamp: 'timestamp without time zone',
  VarChar: 'character varying',
  Text: 'text',
  Integer: 'integer',
  SmallInt: 'smallint',
  DoublePrecision: 'double precision',
  JsonB: 'jsonb',
  Date: 'date',
};

function blocks(source: string, keyword: string): { name: string; body: string }[] {
  const result: { name: string; body: string }[] = [];
  const re = new RegExp(`^${keyword}\\s+(\\w+)\\s*\\{([\\s\\S]*?)^\\}`, 'gm');
  for (const m of source.matchAll(re)) result.push({ name: m[1] as string, body: m[2] as string });
  return result;
}

export function readExpectedSchema(source = readFileSync(schemaPath, 'utf8')): ExpectedSchema {
  const clean = source.replace(/\/\/.*$/gm, '');
  const enums = new Map<string, string[]>();
  for (const e of blocks(clean, 'enum')) {
    enums.set(
      e.name,
      e.body
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
  }
  const models = blocks(clean, 'model');
  const modelNames = new Set(models.map((m) => m.name));
  const tables = new Map<string, ExpectedColumn[]>();
  for (const model of models) {
    const table = /@@map\("([^"]+)"\)/.exec(model.body)?.[1] ?? model.name;
    const columns: ExpectedColumn[] = [];
    for (const raw of model.body.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('@@')) continue;
      const m = /^(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!m) throw new Error(`schema.prisma: cannot read field line "${line}" in model ${model.name}`);
      const [, field, type, list, optional, attrs] = m as unknown as [
        string,
        string,
        string,
        string | undefined,
        string | undefined,
        string,
      ];
      if (modelNames.has(type)) continue; // relation field, no column
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? field;
      const native = /@db\.(\w+)/.exec(attrs)?.[1];
      let pgType: string | undefined;
      if (enums.has(type)) pgType = type;
      else if (native) pgType = NATIVE[native];
      else pgType = SCALARS[type];
      if (!pgType)
        throw new Error(
          `schema.prisma: no Postgres type known for ${model.name}.${field} (${type} ${native ?? ''})`,
        );
      // Prisma creates scalar lists as nullable arrays (`TEXT[]`), whatever the element type.
      if (list) columns.push({ name: column, type: `ARRAY of ${pgType}`, nullable: true });
      else columns.push({ name: column, type: pgType, nullable: Boolean(optional) });
    }
    tables.set(table, columns);
  }
  return { tables, enums };
}
