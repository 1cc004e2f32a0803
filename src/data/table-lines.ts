/**
 * One SQLite table as JSON lines and back: each row an object keyed by column name, BLOB columns
 * as lowercase hex. Used by the export (rows out, ordered by key so two exports of the same home
 * are byte-identical) and the import (rows in, columns checked against the target table).
 */
import type { Db } from '../store/database.js';

/** The tables an export carries besides the card data, with the order their rows are written in. */
export const EXPORTED_TABLES = {
  pushes: { table: 'hae_pushes', order: 'id' },
  samples: { table: 'hae_samples', order: 'id' },
  metrics: { table: 'hae_metrics_seen', order: 'metric' },
  conversations: { table: 'conversations', order: 'id' },
  messages: { table: 'conversation_messages', order: 'id' },
  phoneRows: { table: 'hae_card_rows', order: 'card_id, date' },
} as const;

/** Which table of EXPORTED_TABLES. */
export type TableKey = keyof typeof EXPORTED_TABLES;

/** Column names and which of them hold BLOBs, from the table's declaration. */
export function tableColumns(db: Db, table: string): { names: string[]; blobs: Set<string> } {
  const cols = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string }[];
  return {
    names: cols.map((c) => c.name),
    blobs: new Set(cols.filter((c) => c.type.toUpperCase() === 'BLOB').map((c) => c.name)),
  };
}

/** The JSON line of one row (no newline). */
export function rowToLine(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = Buffer.isBuffer(v) ? v.toString('hex') : v;
  return JSON.stringify(out);
}

/** Every row of a table as JSON lines, in key order (a lazy iterator over the open statement). */
export function* tableLines(db: Db, key: TableKey): Generator<string> {
  const { table, order } = EXPORTED_TABLES[key];
  for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).iterate()) {
    yield rowToLine(row as Record<string, unknown>);
  }
}

/** How many rows a table holds. */
export function tableCount(db: Db, key: TableKey): number {
  return db.prepare(`SELECT count(*) FROM ${EXPORTED_TABLES[key].table}`).pluck().get() as number;
}
