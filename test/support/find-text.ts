import type { Knex } from '@frametext/service-kit';

/** One place a needle was found: the column of the table (in its schema) whose value holds it, and in how many rows. */
export interface TextHit {
  needle: string;
  schema: string;
  table: string;
  column: string;
  rows: number;
}

interface SearchableColumn {
  schema: string;
  table: string;
  column: string;
  binary: boolean;
}

// Every column a piece of text can sit in: character types, JSON, arrays, enums and domains (their text form), bytes.
const TEXT_TYPES = ['text', 'character varying', 'character', 'json', 'jsonb', 'xml', 'ARRAY', 'USER-DEFINED', 'bytea'];

/** Every column of every table of `schemas` that can hold text, read from information_schema. */
async function searchableColumns(db: Knex, schemas: readonly string[]): Promise<SearchableColumn[]> {
  const rows: { table_schema: string; table_name: string; column_name: string; data_type: string }[] = await db('information_schema.columns as c')
    .join('information_schema.tables as t', function () {
      this.on('t.table_schema', 'c.table_schema').andOn('t.table_name', 'c.table_name');
    })
    .whereIn('c.table_schema', schemas)
    .where('t.table_type', 'BASE TABLE')
    .whereIn('c.data_type', TEXT_TYPES)
    .orderBy(['c.table_schema', 'c.table_name', 'c.ordinal_position'])
    .select('c.table_schema', 'c.table_name', 'c.column_name', 'c.data_type');
  return rows.map((r) => ({ schema: r.table_schema, table: r.table_name, column: r.column_name, binary: r.data_type === 'bytea' }));
}

/** How many rows of the column hold the needle: case-insensitive in the value's text form, byte for byte in bytea. */
async function rowsHolding(db: Knex, c: SearchableColumn, needle: string): Promise<number> {
  const condition = c.binary ? `position(convert_to(?, 'UTF8') in ??) > 0` : `position(lower(?) in lower(??::text)) > 0`;
  const [row] = await db(`${c.schema}.${c.table}`).whereRaw(condition, [needle, c.column]).count<{ n: number }[]>({ n: '*' });
  return Number(row!.n);
}

/**
 * Searches every text, JSON, array and byte column of every table in `schemas` for each needle and answers where
 * each was found (nothing: it is nowhere). Tables are listed afresh each call, so tables a migration adds are searched too.
 */
export async function findText(db: Knex, schemas: readonly string[], needles: readonly string[]): Promise<TextHit[]> {
  const hits: TextHit[] = [];
  for (const column of await searchableColumns(db, schemas)) {
    for (const needle of needles) {
      const rows = await rowsHolding(db, column, needle);
      if (rows > 0) hits.push({ needle, schema: column.schema, table: column.table, column: column.column, rows });
    }
  }
  return hits;
}
