/**
 * A summary of chosen cards over a date range, for a doctor (the printable page `/summary`):
 * per card the readings in the range (rows whose date, the card's `view.dateField`, falls in it,
 * oldest first), and for each numeric field its count, average, minimum and maximum with its
 * unit; for a medication or supplement schedule, each item's adherence over the range (doses
 * scheduled, taken, share) as the card's own report counts it (src/common/adherence-report.ts).
 * Rows are read by the date index, so a card of any length costs only its rows in the range.
 * A date written with `Z` or an offset is an instant, in the range when its day in the person's
 * zone is (an evening in Los Angeles sent as the next day in UTC belongs to that evening's day).
 */

import { adherenceSoFar } from '../common/adherence-report.js';
import { addDays, dayOfDateTime, todayIn } from '../common/dates.js';
import { DAY_FIRST_RANGES, yearsRange } from '../common/day-spellings.js';
import { addsUpDay, isRunningTotal } from '../common/day-total.js';
import { formInputs } from '../common/inputs.js';
import { cleanNumber, decimalPlaces, MAX_DECIMALS, toFiniteNumber } from '../common/numbers.js';
import { type ReportItem, reportItems } from '../common/schedule-groups.js';
import type { CardSummary } from '../common/summary-types.js';
import { writePolicyOf } from '../common/write-policy.js';
import type { Db } from '../store/database.js';
import { handDatedRows, ISO_GLOB } from '../store/hand-dates.js';
import { fieldUnits } from './card-csv.js';

/** Most readings listed per card (the statistics count them all). */
export const SUMMARY_MAX_ROWS = 500;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** A card of the home, as the summary needs it. */
export interface SummaryCard {
  id: string;
  meta: Record<string, unknown>;
}

/** A row read for the summary and the day it is filed under. */
interface DatedRow {
  row: Record<string, unknown>;
  day: string;
}

/**
 * The day a row's date (its `field`) is filed under in `timeZone` (its first ten characters when
 * it names none).
 */
function dayOf(row: Record<string, unknown>, field: string, timeZone?: string): string {
  const written = String(row[field]);
  return dayOfDateTime(written, timeZone) ?? written.slice(0, 10);
}

/** The object rows among `bodies` (JSON texts) that hold `field`, each with its day. */
function* datedRows(bodies: Iterable<string>, field: string, timeZone?: string): Generator<DatedRow> {
  for (const body of bodies) {
    const row = JSON.parse(body);
    if (isRecord(row) && Object.hasOwn(row, field)) yield { row, day: dayOf(row, field, timeZone) };
  }
}

/**
 * The SQL value of a row's `field` and the parameters it takes: `date` by the date index's own
 * expression, any other key by a quoted JSON path (a key holding `"` cannot be quoted and is read
 * through the parsed row instead, so no row matches in SQL: null).
 */
function fieldExpr(field: string): { sql: string; params: string[] } | null {
  if (field === 'date') return { sql: "json_extract(body, '$.date')", params: [] };
  if (field.includes('"')) return null;
  return { sql: 'json_extract(body, ?)', params: [`$."${field}"`] };
}

/** Every object row of the card holding `field` (one whose key SQL cannot name), in day order. */
function everyRowByDay(db: Db, cardId: string, field: string, timeZone?: string): DatedRow[] {
  const bodies = db
    .prepare('SELECT body FROM card_rows WHERE card_id = ? ORDER BY pos')
    .pluck()
    .all(cardId) as string[];
  return [...datedRows(bodies, field, timeZone)].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** Two sequences of rows in day order, merged into one in day order. */
function* inDayOrder(a: Iterable<DatedRow>, b: Iterable<DatedRow>): Generator<DatedRow> {
  const rest = b[Symbol.iterator]();
  let next = rest.next();
  for (const r of a) {
    while (!next.done && next.value.day < r.day) {
      yield next.value;
      next = rest.next();
    }
    yield r;
  }
  while (!next.done) {
    yield next.value;
    next = rest.next();
  }
}

/**
 * The card's object rows whose date (`field`: the card's `view.dateField`, default `date`) is
 * written within two days of `from`…`to` (an instant is filed up to two days from the day
 * written: offsets −12:00 to +14:00), in day order, each with its day; the caller keeps those of
 * its days. `date` is read by the date index, another field by its value in each row; dates
 * written by hand another way (`2026/04/06`, `6.4.2026`) lie elsewhere in text order and are read
 * by their ranges. The range read keeps to dates written `YYYY-MM-DD…`: a year-first hand spelling
 * sorts inside a range reaching into the next year (`2026-4-6` < `2027-01-02`) and would
 * otherwise come twice.
 */
function rowsNear(
  db: Db,
  cardId: string,
  field: string,
  from: string,
  to: string,
  timeZone?: string,
): Iterable<DatedRow> {
  const expr = fieldExpr(field);
  if (!expr) return everyRowByDay(db, cardId, field, timeZone);
  const [lo, hi] = [addDays(from, -2), addDays(to, 2)];
  const { sql, params } = expr;
  const rows = db
    .prepare(
      `SELECT body FROM card_rows WHERE card_id = ? AND ${sql} >= ? AND ${sql} < ?
       AND ${sql} GLOB '${ISO_GLOB}'
       ORDER BY ${sql}, pos`,
    )
    .pluck()
    .iterate(cardId, ...params, lo, ...params, `${hi}~`, ...params, ...params) as Iterable<string>;
  const byHand = handDatedRows(db, cardId, field, [yearsRange(lo, hi), ...DAY_FIRST_RANGES]).map(
    (r) => r.body,
  );
  const handRows = [...datedRows(byHand, field, timeZone)].sort((a, b) =>
    a.day < b.day ? -1 : a.day > b.day ? 1 : 0,
  );
  return inDayOrder(datedRows(rows, field, timeZone), handRows);
}

/** The running count, sum, minimum, maximum and most decimals of one field's readings. */
interface Stat {
  n: number;
  sum: number;
  min: number;
  max: number;
  decimals: number;
}

/** Input types whose values are numbers: a reading of theirs written as text still counts. */
const NUMBER_INPUTS: readonly string[] = ['number', 'stepper', 'rating'];

/** `a` with reading `v` added (a new Stat when `a` is undefined). */
function addReading(a: Stat | undefined, v: number): Stat {
  const s = a ?? { n: 0, sum: 0, min: v, max: v, decimals: 0 };
  s.n++;
  s.decimals = Math.max(s.decimals, decimalPlaces(v));
  s.sum += v;
  s.min = Math.min(s.min, v);
  s.max = Math.max(s.max, v);
  return s;
}

/** The text values of `field` in the card's rows, in row order (every dose a card-level schedule counts). */
function rowDates(db: Db, cardId: string, field: string): string[] {
  const expr = fieldExpr(field);
  const values = expr
    ? (db
        .prepare(`SELECT ${expr.sql} FROM card_rows WHERE card_id = ? ORDER BY pos`)
        .pluck()
        .all(...expr.params, cardId) as unknown[])
    : everyRowByDay(db, cardId, field).map((r) => r.row[field]);
  return values.filter((v): v is string => typeof v === 'string');
}

/** The views whose config may name where a card keeps its schedule items (`itemsPath`). */
const ITEMS_PATH_VIEWS = ['reports', 'view', 'trends', 'calendar', 'dayDetail'];

/** The `itemsPath` a view of the card names (the key of the data holding its items), if any. */
function itemsPathOf(meta: Record<string, unknown>): string | undefined {
  for (const v of ITEMS_PATH_VIEWS) {
    const cfg = meta[v];
    if (isRecord(cfg) && typeof cfg.itemsPath === 'string' && cfg.itemsPath.trim() !== '')
      return cfg.itemsPath;
  }
  return undefined;
}

/** Each item's adherence from `from` to `to` as of `today`, as the card's own report counts it. */
function adherenceOf(
  items: readonly ReportItem[],
  from: string,
  to: string,
  today: string,
  timeZone?: string,
): CardSummary['adherence'] {
  return items.map((it) => {
    // the card's own rule: untracked days, days to come and today's doses not yet taken are not missed
    const a = adherenceSoFar(it.ref.item, from, to, today, timeZone);
    return { name: it.name, scheduled: a.scheduled, taken: a.taken, rate: a.rate };
  });
}

/**
 * Summarises one card from `from` to `to` (inclusive `YYYY-MM-DD`, days in `timeZone`, the
 * person's zone; undefined: the server's). A schedule's adherence is told as of `today` (default:
 * today in `timeZone`), as the card's own report tells it: days before an item was tracked and
 * days after today are not counted, and today only by the doses already taken.
 */
export function summariseCard(
  db: Db,
  card: SummaryCard,
  from: string,
  to: string,
  timeZone?: string,
  today?: string,
): CardSummary {
  const units = fieldUnits(card.meta);
  const out: CardSummary = {
    id: card.id,
    label: typeof card.meta.label === 'string' ? card.meta.label : card.id,
    ...(typeof card.meta.emoji === 'string' ? { emoji: card.meta.emoji } : {}),
    columns: [],
    rows: [],
    total: 0,
    stats: [],
    adherence: [],
  };
  const st = db.prepare('SELECT shape, doc FROM card_state WHERE card_id = ?').get(card.id) as
    | { shape: string; doc: string | null }
    | undefined;
  const day = today ?? todayIn(timeZone);
  if (st?.shape === 'value') {
    const doc = JSON.parse(st.doc ?? 'null');
    out.adherence = adherenceOf(
      reportItems(doc, { itemsPath: itemsPathOf(card.meta) }),
      from,
      to,
      day,
      timeZone,
    );
    return out;
  }
  if (st?.shape !== 'array') return out;
  // decimals: the most of any reading, so the average is given to one more (the chart's rule)
  const dateField = writePolicyOf(card.meta).dateField;
  if (isRecord(card.meta.schedule)) {
    // a card-level schedule over dated rows: the card is one item, each row a dose taken that day
    const rows = rowDates(db, card.id, dateField).map((date) => ({ [dateField]: date }));
    out.adherence = adherenceOf(reportItems(rows, { meta: card.meta }), from, to, day, timeZone);
  }
  // readings written as text ("72.4": a hand-edited file, a script): counted, as the card's chart
  // counts them, in a field that holds numbers (a number input, or a number in another reading)
  const readings = new Map<string, Reading[]>();
  const seen = new Set<string>();
  const kept: Record<string, unknown>[] = [];
  // rows are dated in the card's date field (`view.dateField`), as its entries and calendar are
  for (const { row: r, day: rowDay } of rowsNear(db, card.id, dateField, from, to, timeZone)) {
    if (rowDay < from || rowDay > to) continue;
    out.total++;
    for (const [k, v] of Object.entries(r)) {
      seen.add(k);
      if (k === dateField || k === 'time' || typeof v === 'boolean') continue;
      const n = typeof v === 'number' || typeof v === 'string' ? toFiniteNumber(v) : null;
      if (n === null) continue;
      const list = readings.get(k);
      const reading = { day: rowDay, n, typed: typeof v === 'number' };
      if (list) list.push(reading);
      else readings.set(k, [reading]);
    }
    kept.push(r);
    if (kept.length > SUMMARY_MAX_ROWS) kept.shift();
  }
  const numberInputs = new Set(
    formInputs(card.meta)
      .filter((i) => NUMBER_INPUTS.includes(i.type))
      .map((i) => i.key),
  );
  const first = [dateField, 'time'].filter((k) => seen.has(k));
  out.columns = [...first, ...[...seen].filter((k) => !first.includes(k))].map((field) => ({
    field,
    ...(units.get(field) ? { unit: units.get(field) } : {}),
  }));
  out.rows = kept.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, isRecord(v) || Array.isArray(v) ? JSON.stringify(v) : v]),
    ),
  );
  // a card that adds up its day (water by the glass, steps in parts) is summarised by its days'
  // totals, as its chart and Today show it; a day not over yet (today, on a running total) is left out
  const perDay = addsUpDay(card.meta.view, card.meta);
  const unfinished = isRunningTotal((card.meta as { view?: unknown }).view, card.meta) ? day : undefined;
  out.stats = [];
  for (const [field, list] of readings) {
    // a field of text alone counts only where the card's form asks a number for it
    if (!list.some((r) => r.typed) && !numberInputs.has(field)) continue;
    const a = perDay
      ? dayTotals(list, unfinished)
      : list.reduce<Stat | undefined>((s, r) => addReading(s, r.n), undefined);
    if (!a) continue;
    out.stats.push({
      field,
      ...(units.get(field) ? { unit: units.get(field) } : {}),
      ...(perDay ? { per: 'day' as const } : {}),
      count: a.n,
      // a sum of decimals grows a float tail (51.239999999999995): round it off
      avg: cleanNumber(a.sum / a.n, Math.min(MAX_DECIMALS, a.decimals + 1)),
      min: a.min,
      max: a.max,
    });
  }
  return out;
}

/** One numeric value of a field in a row, with the row's day; `typed` when written as a number. */
interface Reading {
  day: string;
  n: number;
  typed: boolean;
}

/**
 * Statistics of the daily totals of `readings` (each day's values added up, without float
 * tails), one per day that has readings, leaving out `unfinished` (a day whose total is only so
 * far); undefined when no day is left.
 */
function dayTotals(readings: readonly Reading[], unfinished: string | undefined): Stat | undefined {
  const totals = new Map<string, number>();
  for (const r of readings) {
    if (r.day !== unfinished) totals.set(r.day, (totals.get(r.day) ?? 0) + r.n);
  }
  let stat: Stat | undefined;
  for (const total of totals.values()) stat = addReading(stat, cleanNumber(total));
  return stat;
}
