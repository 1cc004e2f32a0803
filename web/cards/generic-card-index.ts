/**
 * The look-ups a generic card makes on its rows, from an index built once per data block: the
 * row shown for a day, that day's entries, the latest entry before it, the trend and the
 * sparkline. A card drawn for another day (the date scrub, a re-render) is then a binary search
 * and a few steps instead of passes and sorts over every row.
 *
 * The index is kept per data array (a WeakMap, so it goes with the array): the data cache
 * (lib/card-data.ts) replaces a card's array on every change and never edits it in place, so the
 * array's identity says when the index is stale. The rules (which row, which day, trend and
 * sparkline) are those of src/common/trend.ts and of the card (docs/MANIFEST-SCHEMA.md `display`,
 * `dateContext`, `fallbackToLatest`, `showSparkline`).
 */
import { daysBetween } from '../../src/common/dates.js';
import { getValue } from '../../src/common/display-template.js';
import {
  type DatedIndex,
  dayOf,
  dayRange,
  indexDatedRows,
  lastOnOrBefore,
  type NumericPoint,
  numericPointsIndexed,
  sparklineFieldIndexed,
  type Trend,
  trendAt,
} from '../../src/common/trend.js';

/** One entry of a card: the row, its position in the data array and its calendar day. */
export interface CardEntry {
  row: Record<string, unknown>;
  /** Position in the card's whole data array (a tail's `from` added). */
  index: number;
  /** `YYYY-MM-DD`, or null when the row has no date. */
  day: string | null;
}

/** A card's rows indexed once per data block (`cardRows`). */
export interface CardRows {
  /** The data array it was built from. */
  readonly data: readonly unknown[];
  /**
   * Where `data` starts in the card's whole array: 0 for the whole block, more for the latest rows
   * of a batch read (`dataFrom`, lib/card-data.ts). Entry indices are whole-array positions.
   */
  readonly from: number;
  /** Every dated row (objects or not, as `computeTrend` reads them), in date order. */
  readonly dated: DatedIndex;
  /** True when some plain-object row has a day. */
  readonly anyDatedEntry: boolean;
  /** The last plain-object row in array order (the "latest" of a card whose rows have no date). */
  readonly lastEntry: CardEntry | undefined;
}

/** The rows a generic card shows: plain objects (not arrays, not null). */
export const isEntryRow = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const built = new WeakMap<readonly unknown[], Map<string, CardRows>>();

/**
 * The index of `data` (a card's data array) by `dateField`, built on first use and then reused
 * for as long as the same array is on screen. O(n) for rows in date order, O(n log n) otherwise;
 * O(1) when already built.
 */
export function cardRows(data: readonly unknown[], dateField: string, from = 0): CardRows {
  let byField = built.get(data);
  if (!byField) {
    byField = new Map();
    built.set(data, byField);
  }
  let ix = byField.get(dateField);
  if (!ix) {
    const dated = indexDatedRows(data, dateField);
    let lastEntry: CardEntry | undefined;
    for (let i = data.length - 1; i >= 0 && !lastEntry; i--) {
      const row = data[i];
      if (isEntryRow(row)) lastEntry = { row, index: from + i, day: dayOf(getValue(row, dateField)) };
    }
    ix = {
      data,
      from,
      dated,
      anyDatedEntry: dated.items.some((d) => isEntryRow(d.row)),
      lastEntry,
    };
    byField.set(dateField, ix);
  }
  return ix;
}

/** The entry at dated position `pos` or the nearest entry before it, walking back; undefined when none. */
function entryAtOrBefore(ix: CardRows, pos: number, stopDay?: string): CardEntry | undefined {
  for (let i = pos; i >= 0; i--) {
    const d = ix.dated.items[i];
    if (stopDay !== undefined && d.day !== stopDay) return undefined;
    if (isEntryRow(d.row)) return { row: d.row, index: ix.from + d.index, day: d.day };
  }
  return undefined;
}

/** The entries dated `date`, in array order. */
export function entriesOn(ix: CardRows, date: string): CardEntry[] {
  const [start, end] = dayRange(ix.dated, date);
  const out: CardEntry[] = [];
  for (let i = start; i < end; i++) {
    const d = ix.dated.items[i];
    if (isEntryRow(d.row)) out.push({ row: d.row, index: ix.from + d.index, day: d.day });
  }
  return out;
}

/** The latest entry dated strictly before `date` (the last one of its day), or undefined. */
export function latestBefore(ix: CardRows, date: string): CardEntry | undefined {
  return entryAtOrBefore(ix, lastOnOrBefore(ix.dated, date, true));
}

/**
 * The row a card shows for `date`, and how many days old it is when it is not the day's own:
 * `viewedDate` shows the day's last entry; with `fallbackToLatest` (or `latest`), the latest entry
 * dated up to `date`, `daysAgo` old; `latest` on rows with no date at all shows the last row.
 */
export function pickRow(
  ix: CardRows,
  date: string,
  context: 'viewedDate' | 'latest',
  fallbackToLatest: boolean,
): { shown: CardEntry | undefined; daysAgo: number } {
  const upTo = lastOnOrBefore(ix.dated, date);
  if (context === 'viewedDate') {
    const own = entryAtOrBefore(ix, upTo, date);
    if (own) return { shown: own, daysAgo: 0 };
  }
  if (context === 'latest' || fallbackToLatest) {
    const last = entryAtOrBefore(ix, upTo);
    if (last) return { shown: last, daysAgo: daysBetween(last.day as string, date) };
    // rows with no date at all (a hand-made card): the last one is the latest
    if (context === 'latest' && !ix.anyDatedEntry && ix.lastEntry) return { shown: ix.lastEntry, daysAgo: 0 };
  }
  return { shown: undefined, daysAgo: 0 };
}

/**
 * True when `ix` holds only a card's latest rows (`from` > 0) and they may not give the answers
 * the whole block gives for `date`. The rows were sent because the whole array is in day order
 * (src/cards/view-data.ts), so every row missing is dated on or before the first row held; the
 * held rows answer when the day shown comes after that first day, and every look-up that walks
 * back in time found what it wanted among them: the shown row (`shown`, when the card shows
 * earlier rows: `fallbackToLatest`, `latest`), the trend's earlier value (`trend`, when the card
 * has an arrow) and a full sparkline (`sparkline`: the points found and how many are wanted).
 */
export function tailFallsShort(
  ix: CardRows,
  date: string,
  found: {
    shown?: { wanted: boolean; entry: CardEntry | undefined };
    trend?: { wanted: boolean; value: unknown };
    sparkline?: { wanted: boolean; points: number; n: number };
  },
): boolean {
  if (ix.from === 0) return false;
  const first = ix.dated.items[0];
  if (!first || date <= first.day) return true;
  if (found.shown?.wanted && !found.shown.entry) return true;
  if (found.trend?.wanted && found.trend.value == null) return true;
  if (found.sparkline?.wanted && found.sparkline.points < found.sparkline.n) return true;
  return false;
}

/** The entry at whole-array position `index` (the one being edited), or undefined when it is gone or not held. */
export function entryAt(ix: CardRows, index: number): CardEntry | undefined {
  const row = index >= ix.from ? ix.data[index - ix.from] : undefined;
  return isEntryRow(row) ? { row, index, day: dayOf(getValue(row, ix.dated.dateField)) } : undefined;
}

/** The trend of `field` for the entries of `day` (`computeTrend` with `currentDate`). */
export function trendOn(ix: CardRows, field: string, day: string): Trend | null {
  return trendAt(ix.dated, field, day);
}

/**
 * The sparkline's field (`sparklineField`) and its last `n` numeric points from the entries dated
 * up to `date`; no points when the display names no field and no row has a number.
 */
export function sparklinePoints(
  ix: CardRows,
  display: Record<string, unknown>,
  date: string,
  n: number,
): NumericPoint[] {
  const field = sparklineFieldIndexed(display, ix.dated);
  return field ? numericPointsIndexed(ix.dated, field, n, { through: date, accept: isEntryRow }) : [];
}
