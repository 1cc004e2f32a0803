/**
 * Trend arrows and sparkline series of a card (docs/MANIFEST-SCHEMA.md `display.trendArrow`, "Trend",
 * `showSparkline`, `numericSeries`; docs/MANIFEST-SCHEMA.md "Trend arrow"). Shared by the server
 * and the browser: no Node imports.
 *
 * Rows are dated by `dateField` (default `date`): a `YYYY-MM-DD` string, or a timestamp whose first
 * ten characters are one (its calendar day as written). Rows without such a date take no
 * part. Within one day the later array index is the later entry. Numbers are read with
 * `toFiniteNumber` (numeric strings count; NaN, ±Infinity and "1e999" do not).
 */

import { dayOfDateTime } from './dates.js';
import { getValue, templateFields } from './display-template.js';
import { cleanNumber, decimalPlaces, formatFixed, numberText, toFiniteNumber } from './numbers.js';

/** Direction of the change from the previous value. */
export type TrendDirection = 'up' | 'down' | 'flat';

/** Which direction is good news for a card; `neutral` colours neither. */
export type GoodDirection = 'up' | 'down' | 'neutral';

/** How a trend reads for the person: coloured as good, bad, or neither. */
export type TrendTone = 'good' | 'bad' | 'neutral';

/** `display.trendArrow` as written in a manifest. */
export interface TrendArrowConfig {
  field?: unknown;
  goodDirection?: unknown;
  /** Legacy: `true` means goodDirection "down", `false` means "up". */
  lowerIsBetter?: unknown;
}

/** The comparison of the current value with the previous one. */
export interface Trend {
  dir: TrendDirection;
  /** current − prev, rounded to the larger precision of the two (85.5 − 85.3 = 0.2). */
  delta: number;
  /** The previous value (as stored). */
  prev: number;
  /** The current value (as stored). */
  current: number;
  /** Day of the previous value, `YYYY-MM-DD`. */
  prevDate: string;
  /** Decimals `delta` was rounded to (for `formatDelta`). */
  decimals: number;
}

/** Options of `computeTrend` and `numericPoints`. */
export interface TrendOptions {
  /** Row key holding the date (`meta.view.dateField`); default `date`. */
  dateField?: string;
  /**
   * The day whose row is current (`YYYY-MM-DD`, e.g. the viewed date); its latest entry is used.
   * Default: the latest-dated row.
   */
  currentDate?: string;
}

/** A dated numeric value, for sparklines and charts. */
export interface NumericPoint {
  date: string;
  value: number;
}

/** Default glyphs of the card's arrow (the calendar's trend-arrow marker has its own, ⬆️ ⬇️ ➡️). */
export const TREND_ARROWS: Readonly<Record<TrendDirection, string>> = { up: '↑', down: '↓', flat: '→' };

/** The minus sign `formatDelta` uses (U+2212, the typographic minus). */
export const MINUS = '\u2212';

const DAY_RE = /^\d{4}-\d{2}-\d{2}/;

/**
 * The calendar day (`YYYY-MM-DD`) a date value is filed under, or null when it does not start
 * with one (written `YYYY-MM-DD`, or year first another way: `2026-4-20`, `2026/04/20`). A timestamp with `Z` or an offset is filed under its date in `timeZone` (default: the
 * process's zone, in the browser the person's; see dayOfDateTime); anything else that starts with
 * a date, under the date written.
 */
export function dayOf(v: unknown, timeZone?: string): string | null {
  if (typeof v !== 'string') return null;
  if (!DAY_RE.test(v)) return dayOfDateTime(v, timeZone);
  if (v.length === 10) return v;
  return dayOfDateTime(v, timeZone) ?? v.slice(0, 10);
}

/** One dated row of a data block: the row, its calendar day and its array position. */
export interface DatedRow {
  row: unknown;
  /** `YYYY-MM-DD`. */
  day: string;
  /** Position in the data array (the later index is the later entry of a day). */
  index: number;
}

/**
 * The dated rows of a data block in chronological order (day, then array index), built once and
 * then asked many times (`trendAt`, `numericPointsIndexed`, `lastOnOrBefore`): a card drawn for
 * another day is a binary search and a few steps, not a pass over every row. Plain data: build a
 * new one when the rows change (the browser keys it by the data array, which is replaced, never
 * mutated, on each change).
 */
export interface DatedIndex {
  /** Row key holding the date (`meta.view.dateField`). */
  readonly dateField: string;
  /** The rows that have a day, oldest first (day, then array index). */
  readonly items: readonly DatedRow[];
}

/**
 * Indexes `rows` (any value; a non-array has no rows) by the day of `dateField` (default `date`):
 * one pass, and a sort only when the rows are not already in date order. O(n) for rows kept in
 * date order (as the entry routes keep them), O(n log n) otherwise.
 */
export function indexDatedRows(rows: unknown, dateField = 'date'): DatedIndex {
  const items: DatedRow[] = [];
  if (Array.isArray(rows)) {
    let ordered = true;
    let last = '';
    for (let index = 0; index < rows.length; index++) {
      const row: unknown = rows[index];
      const day = dayOf(getValue(row, dateField));
      if (day === null) continue;
      if (day < last) ordered = false;
      else last = day;
      items.push({ row, day, index });
    }
    if (!ordered) items.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.index - b.index));
  }
  return { dateField, items };
}

/** The first position in `items` whose day is >= `day` (items.length when none). */
function firstFrom(items: readonly DatedRow[], day: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position in `items` whose day is > `day` (items.length when none). */
function firstAfter(items: readonly DatedRow[], day: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].day <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Position in `index.items` of the latest row dated on or before `day` (`YYYY-MM-DD`), -1 when
 * none. With `strict`, strictly before `day`. Binary search: O(log n).
 */
export function lastOnOrBefore(index: DatedIndex, day: string, strict = false): number {
  return (strict ? firstFrom(index.items, day) : firstAfter(index.items, day)) - 1;
}

/**
 * The positions `[start, end)` in `index.items` of the rows dated `day`, in array order (empty
 * when the day has none). O(log n).
 */
export function dayRange(index: DatedIndex, day: string): [number, number] {
  return [firstFrom(index.items, day), firstAfter(index.items, day)];
}

/**
 * Compares the current row's `field` with the most recent earlier-dated row that has a number in
 * `field` (docs/MANIFEST-SCHEMA.md "Trend"). The current row is the latest entry of
 * `opts.currentDate` (default: the latest-dated row); rows may be in any order. Null when there
 * is no current row, its value is not a finite number, or no earlier day has one. Entries of the
 * same day are never compared with each other. `delta` is rounded to the precision of the inputs
 * (`decimalPlaces`), so 80 → 80.2 is +0.2, never 0.20000000000000284. `field` may be a
 * dotted path.
 */
export function computeTrend(rows: unknown, field: string, opts: TrendOptions = {}): Trend | null {
  return trendAt(indexDatedRows(rows, opts.dateField ?? 'date'), field, opts.currentDate);
}

/**
 * `computeTrend` on an index built once (`indexDatedRows`): the same answer, found with a binary
 * search for `currentDate` (default: the latest-dated row) and a walk back to the previous day
 * with a number, so asking again for another day does not re-read every row.
 */
export function trendAt(index: DatedIndex, field: string, currentDate?: string): Trend | null {
  const dated = index.items;
  if (dated.length === 0) return null;
  let curIdx: number;
  if (currentDate !== undefined) {
    const day = dayOf(currentDate);
    if (day === null) return null;
    curIdx = lastOnOrBefore(index, day);
    if (curIdx < 0 || dated[curIdx].day !== day) return null;
  } else {
    curIdx = dated.length - 1;
  }
  const cur = dated[curIdx];
  const current = toFiniteNumber(getValue(cur.row, field));
  if (current === null) return null;
  for (let i = curIdx - 1; i >= 0; i--) {
    const d = dated[i];
    if (d.day >= cur.day) continue;
    const prev = toFiniteNumber(getValue(d.row, field));
    if (prev === null) continue;
    const decimals = Math.max(decimalPlaces(current), decimalPlaces(prev));
    const delta = cleanNumber(current - prev, decimals);
    const dir: TrendDirection = delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat';
    return { dir, delta, prev, current, prevDate: d.day, decimals };
  }
  return null;
}

/**
 * The direction that is good news for a card's `trendArrow`: `goodDirection` when it is "up",
 * "down" or "neutral"; else legacy `lowerIsBetter` (`true` → "down", `false` → "up"); else
 * "neutral" (docs/MANIFEST-SCHEMA.md "Trend arrow"). A card that does not say which way is good
 * gets no colour: a rise in steps is good news, a rise in blood pressure is not, and guessing
 * either would tell the person something the card never said.
 */
export function goodDirectionOf(cfg: TrendArrowConfig | null | undefined): GoodDirection {
  const g = cfg?.goodDirection;
  if (g === 'up' || g === 'down' || g === 'neutral') return g;
  if (cfg?.lowerIsBetter === true) return 'down';
  if (cfg?.lowerIsBetter === false) return 'up';
  return 'neutral';
}

/** Good, bad or neutral for a direction: flat and a neutral card are always neutral. */
export function trendTone(dir: TrendDirection, good: GoodDirection): TrendTone {
  if (dir === 'flat' || good === 'neutral') return 'neutral';
  return dir === good ? 'good' : 'bad';
}

/**
 * A signed delta as printed next to the arrow: `+0.2`, `−1.5` (U+2212), `0`. With `decimals`,
 * exactly that many (`formatFixed`); without, the shortest text after removing float artefacts.
 * A delta that shows as zero has no sign. Non-finite gives ''.
 */
export function formatDelta(delta: number, decimals?: number): string {
  if (!Number.isFinite(delta)) return '';
  const abs = decimals === undefined ? numberText(Math.abs(delta)) : formatFixed(Math.abs(delta), decimals);
  if (/^[0.]*$/.test(abs)) return abs;
  return `${delta > 0 ? '+' : MINUS}${abs}`;
}

/**
 * The dated numeric values of `field`, in chronological order, the last `n` of them (all when `n`
 * is omitted; none when `n` <= 0). Rows without a day or without a finite number are left out
 * (a gap, never a 0). Several entries on a day all count, in array order.
 */
export function numericPoints(
  rows: unknown,
  field: string,
  n?: number,
  opts: Pick<TrendOptions, 'dateField'> = {},
): NumericPoint[] {
  if (n !== undefined && !(n > 0)) return [];
  return numericPointsIndexed(indexDatedRows(rows, opts.dateField ?? 'date'), field, n);
}

/** Options of `numericPointsIndexed`. */
export interface IndexedPointsOptions {
  /** Only rows dated on or before this day (`YYYY-MM-DD`), e.g. the viewed date. */
  through?: string;
  /** Only rows this accepts (e.g. plain objects); default every dated row. */
  accept?: (row: unknown) => boolean;
}

/**
 * `numericPoints` on an index built once (`indexDatedRows`): the last `n` dated numeric values of
 * `field` (all when `n` is omitted, none when `n` <= 0), oldest first, from the rows dated up to
 * `opts.through` that `opts.accept` takes. Walks back from the end (or from `through`), so the
 * cost is the points returned plus the rows skipped, not the whole block.
 */
export function numericPointsIndexed(
  index: DatedIndex,
  field: string,
  n?: number,
  opts: IndexedPointsOptions = {},
): NumericPoint[] {
  if (n !== undefined && !(n > 0)) return [];
  const want = n === undefined ? Number.POSITIVE_INFINITY : Math.floor(n);
  const out: NumericPoint[] = [];
  const from = opts.through === undefined ? index.items.length - 1 : lastOnOrBefore(index, opts.through);
  for (let i = from; i >= 0 && out.length < want; i--) {
    const d = index.items[i];
    if (opts.accept && !opts.accept(d.row)) continue;
    const value = toFiniteNumber(getValue(d.row, field));
    if (value !== null) out.push({ date: d.day, value });
  }
  return out.reverse();
}

/**
 * The last `n` numeric values of `field`, oldest first, for sparklines (docs/MANIFEST-SCHEMA.md,
 * `numericSeries`): `numericPoints` without the dates.
 */
export function numericSeries(
  rows: unknown,
  field: string,
  n?: number,
  opts: Pick<TrendOptions, 'dateField'> = {},
): number[] {
  return numericPoints(rows, field, n, opts).map((p) => p.value);
}

/**
 * The field a generic card's sparkline plots (docs/MANIFEST-SCHEMA.md `showSparkline`):
 * `display.trendArrow.field`, else the first field of `display.template`, else the first key of the
 * latest dated row (not the date field) holding a finite number. Undefined when none.
 */
export function sparklineField(
  display: unknown,
  rows?: unknown,
  opts: Pick<TrendOptions, 'dateField'> = {},
): string | undefined {
  return sparklineFieldOf(
    display,
    () => {
      const dated = indexDatedRows(rows, opts.dateField ?? 'date').items;
      return dated[dated.length - 1]?.row;
    },
    opts.dateField ?? 'date',
  );
}

/** `sparklineField` on an index built once (`indexDatedRows`): the same answer, no pass over the rows. */
export function sparklineFieldIndexed(display: unknown, index: DatedIndex): string | undefined {
  return sparklineFieldOf(display, () => index.items[index.items.length - 1]?.row, index.dateField);
}

function sparklineFieldOf(display: unknown, latestRow: () => unknown, dateField: string): string | undefined {
  const d = display !== null && typeof display === 'object' ? (display as Record<string, unknown>) : {};
  const arrow = d.trendArrow;
  const arrowField =
    arrow !== null && typeof arrow === 'object' ? (arrow as Record<string, unknown>).field : undefined;
  if (typeof arrowField === 'string' && arrowField.trim() !== '') return arrowField.trim();
  const first = templateFields(d.template)[0];
  if (first) return first;
  const latest = latestRow();
  if (latest === null || typeof latest !== 'object') return undefined;
  return Object.keys(latest).find(
    (k) => k !== dateField && toFiniteNumber((latest as Record<string, unknown>)[k]) !== null,
  );
}
