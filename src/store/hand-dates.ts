/**
 * Rows whose date a person wrote by hand another way than `YYYY-MM-DD` (`2026/04/06`,
 * `2026-4-6`, `6.4.2026`: src/common/day-spellings.ts), found by text ranges of the date field.
 * For `date` each range is one read of the rows' date index; another field is read from every
 * row of the card once. Values written `YYYY-MM-DD…` are left out: the callers read those by
 * the index already.
 */

import type Database from 'better-sqlite3';
import type { TextRange } from '../common/day-spellings.js';
import type { Db } from './database.js';

/** A value that starts like an ISO date, for GLOB. */
export const ISO_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*';
const DATE_EXPR = "json_extract(body, '$.date')";

/** One element of a top-level array as stored: its row id, position and JSON text. */
export interface HandDatedRow {
  id: number;
  pos: number;
  body: string;
}

interface Statements {
  dateRows: Database.Statement<[string, string, string]>;
  fieldRows: Database.Statement<[string, string]>;
}

const statements = new WeakMap<Db, Statements>();

function prepared(db: Db): Statements {
  let s = statements.get(db);
  if (!s) {
    s = {
      dateRows: db.prepare(
        `SELECT id, pos, body FROM card_rows WHERE card_id = ? AND ${DATE_EXPR} >= ? AND ${DATE_EXPR} < ?
         AND ${DATE_EXPR} NOT GLOB '${ISO_GLOB}'`,
      ),
      fieldRows: db.prepare(
        `SELECT id, pos, body, v FROM (SELECT id, pos, body, json_extract(body, ?) AS v FROM card_rows WHERE card_id = ?)
         WHERE typeof(v) = 'text' AND v NOT GLOB '${ISO_GLOB}'`,
      ),
    };
    statements.set(db, s);
  }
  return s;
}

const inRange = (v: string, [lo, hi]: TextRange) => v >= lo && v < hi;

/**
 * The rows of card `cardId` (a top-level array) whose `field` is a text inside one of `ranges`
 * and not written `YYYY-MM-DD…`, in position order, each once. `field` is a plain key.
 */
export function handDatedRows(
  db: Db,
  cardId: string,
  field: string,
  ranges: readonly TextRange[],
): HandDatedRow[] {
  const s = prepared(db);
  const byId = new Map<number, HandDatedRow>();
  if (field === 'date') {
    for (const [lo, hi] of ranges)
      for (const r of s.dateRows.all(cardId, lo, hi) as HandDatedRow[]) byId.set(r.id, r);
  } else {
    for (const r of s.fieldRows.all(`$."${field}"`, cardId) as (HandDatedRow & { v: string })[])
      if (ranges.some((range) => inRange(r.v, range))) byId.set(r.id, { id: r.id, pos: r.pos, body: r.body });
  }
  return [...byId.values()].sort((a, b) => a.pos - b.pos);
}

/** The distinct values of `field` of handDatedRows (the same rule), in text order. */
export function handDateValues(
  db: Db,
  cardId: string,
  field: string,
  ranges: readonly TextRange[],
): string[] {
  const out = new Set<string>();
  for (const r of handDatedRows(db, cardId, field, ranges)) {
    const v = (JSON.parse(r.body) as Record<string, unknown>)[field];
    if (typeof v === 'string') out.add(v);
  }
  return [...out].sort();
}
