/**
 * The calendar's day markers (`meta.calendar`, component `day-marker`; docs/MANIFEST-SCHEMA.md
 * "calendar"; docs/MANIFEST-SCHEMA.md "calendar"). Shared by the server and the browser: no Node
 * imports.
 *
 * A card with `calendar.enabled: true` puts one glyph on each day that has at least one entry. The
 * glyph comes from `calendar.marker`: a static emoji string (default `meta.emoji`), or an object
 * `{type: "field-emoji" | "trend-arrow" | "threshold" | "template", ..., fallback?}` computed from
 * the day's latest entry, or, on a card that adds up its day (`aggregate: "sum"`), its total. When an object marker yields nothing, the glyph is its `fallback`, then
 * `meta.emoji`, then `•` (one chain for every type).
 */

import { addsUpDay, isRunningTotal, isSettledWhileRunning, sumEntries } from './day-total.js';
import { getValue, lookupEmoji, renderTemplate } from './display-template.js';
import { cleanNumber, mostDecimals, toFiniteNumber } from './numbers.js';
import { ruleMatches } from './thresholds.js';
import {
  computeTrend,
  dayOf,
  dayRange,
  indexDatedRows,
  lastOnOrBefore,
  type TrendDirection,
} from './trend.js';

/** The last-resort glyph for a day with data. */
export const DEFAULT_MARKER = '•';

/** Default arrows of a `trend-arrow` marker. */
export const MARKER_ARROWS: Readonly<Record<TrendDirection, string>> = { up: '⬆️', down: '⬇️', flat: '➡️' };

/** Most glyphs a day cell shows before `+N`. */
export const MAX_DAY_GLYPHS = 3;

/** What `markerFor` reads of `meta` (the card's meta block). */
export interface MarkerMeta {
  emoji?: unknown;
  view?: unknown;
  /** Its Trends config: `aggregate: "sum"` there makes the day's total what marks it. */
  trends?: unknown;
}

/** Extra context for markers that need more than the day's rows. */
export interface MarkerContext {
  /**
   * All the card's rows, for `trend-arrow` (which compares with an earlier day). Without them the
   * trend cannot be computed and the fallback shows.
   */
  rows?: unknown[];
  /** The day being marked, `YYYY-MM-DD`. Default: the date of the day's latest entry. */
  date?: string;
  /** Row key holding the date (`meta.view.dateField`); default `date`. */
  dateField?: string;
  /**
   * True for the person's today: on a running total its total is only so far, so a threshold
   * rule it may still fall out of (a `max`, a catch-all) does not mark it yet.
   */
  unfinished?: boolean;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const nonEmptyString = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/**
 * The day's entry that counts: "the latest entry wins" (docs/MANIFEST-SCHEMA.md "calendar"). For
 * dose rows (`items[].doses[]`, those with a parseable `takenAt`) the one taken last; otherwise the
 * last object in array order. Non-objects are ignored; undefined when there is none.
 */
export function latestEntry(rows: readonly unknown[] | null | undefined): Obj | undefined {
  if (!Array.isArray(rows)) return undefined;
  let latest: Obj | undefined;
  let latestTaken = -Infinity;
  let lastObj: Obj | undefined;
  for (const row of rows) {
    if (!isObj(row)) continue;
    lastObj = row;
    const t = typeof row.takenAt === 'string' ? Date.parse(row.takenAt) : Number.NaN;
    if (!Number.isNaN(t) && t >= latestTaken) {
      latestTaken = t;
      latest = row;
    }
  }
  return latest ?? lastObj;
}

function displayEmojiMap(meta: MarkerMeta | null | undefined): Obj | undefined {
  const view = meta?.view;
  const display = isObj(view) ? view.display : undefined;
  const map = isObj(display) ? display.emojiMap : undefined;
  return isObj(map) ? map : undefined;
}

function objectMarker(
  marker: Obj,
  meta: MarkerMeta | null | undefined,
  row: Obj,
  rowsOfDay: readonly unknown[],
  ctx: MarkerContext,
): string | undefined {
  const field = nonEmptyString(marker.field);
  switch (marker.type) {
    case 'field-emoji': {
      if (!field) return undefined;
      const map = isObj(marker.emojiMap) ? marker.emojiMap : displayEmojiMap(meta);
      return nonEmptyString(lookupEmoji(map, field, getValue(row, field)));
    }
    case 'trend-arrow': {
      if (!field) return undefined;
      const dateField = ctx.dateField ?? 'date';
      const date = ctx.date ?? dayOf(getValue(row, dateField)) ?? undefined;
      if (date === undefined) return undefined;
      let dir: TrendDirection | undefined;
      if (addsUpDay(meta?.view, meta)) {
        // a total still growing is not yet smaller than a whole earlier day
        if (!(ctx.unfinished && isRunningTotal(meta?.view, meta)))
          dir = totalTrendDir(ctx.rows ?? rowsOfDay, field, date, dateField);
      } else {
        dir = computeTrend(ctx.rows ?? rowsOfDay, field, { dateField, currentDate: date })?.dir;
      }
      return dir ? (nonEmptyString(marker[dir]) ?? MARKER_ARROWS[dir]) : undefined;
    }
    case 'threshold': {
      // `bands` is the older name of `rules`
      const rules = Array.isArray(marker.rules) ? marker.rules : marker.bands;
      if (!Array.isArray(rules)) return undefined;
      for (const rule of rules) {
        if (!isObj(rule)) continue;
        // a total still growing is judged only by the rules it cannot fall out of (Today's rule)
        if (ctx.unfinished && isRunningTotal(meta?.view, meta) && !isSettledWhileRunning(rule)) continue;
        const f = nonEmptyString(rule.ifField) ?? nonEmptyString(rule.field) ?? field;
        if (ruleMatches(rule, f === undefined ? undefined : getValue(row, f))) {
          const emoji = nonEmptyString(rule.emoji);
          if (emoji) return emoji;
        }
      }
      return undefined;
    }
    case 'template':
      return typeof marker.template === 'string'
        ? nonEmptyString(renderTemplate(marker.template, row, { emojiMap: displayEmojiMap(meta) }))
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The glyph a card puts on a calendar day, or null for no mark (calendar not enabled, or no entry
 * that day). `calendarConfig` is `meta.calendar`; `rowsOfDay` the card's rows dated that day; the
 * day's latest entry (`latestEntry`) decides, or its total (`sumEntries`) on a card that adds up its
 * day. Marker forms (docs/MANIFEST-SCHEMA.md "calendar"):
 * - absent or '' → `meta.emoji`, else `•`; a string → itself;
 * - `{type: "field-emoji", field, emojiMap?}` → the emoji of the field's value (keyed or flat map;
 *   without `emojiMap`, `meta.view.display.emojiMap`);
 * - `{type: "trend-arrow", field, up?, down?, flat?}` → ⬆️ ⬇️ ➡️ (or the given glyphs) from
 *   `computeTrend` over `ctx.rows` with the day as current date;
 * - `{type: "threshold", field, rules: [{min?, max?, eq?, emoji}]}` (older name `bands`) → the emoji of the first rule
 *   matching as display thresholds do (`ruleMatches`; catch-all allowed; a rule may name its own
 *   `ifField`);
 * - `{type: "template", template}` → the rendered template (`:emoji` from
 *   `meta.view.display.emojiMap`), trimmed.
 * When an object marker gives nothing (or an unknown type): `fallback`, then `meta.emoji`, then `•`.
 */
export function markerFor(
  calendarConfig: unknown,
  meta: MarkerMeta | null | undefined,
  rowsOfDay: readonly unknown[] | null | undefined,
  ctx: MarkerContext = {},
): string | null {
  if (!isObj(calendarConfig) || calendarConfig.enabled !== true) return null;
  const row = addsUpDay(meta?.view, meta) ? dayTotal(rowsOfDay, ctx.dateField) : latestEntry(rowsOfDay);
  if (!row) return null;
  const cardDefault = nonEmptyString(meta?.emoji) ?? DEFAULT_MARKER;
  const marker = calendarConfig.marker;
  if (typeof marker === 'string') return nonEmptyString(marker) ?? cardDefault;
  if (!isObj(marker)) return cardDefault;
  return (
    objectMarker(marker, meta, row, rowsOfDay ?? [], ctx) ?? nonEmptyString(marker.fallback) ?? cardDefault
  );
}

/**
 * How the total of `field` on `day` compares with the total of the latest earlier day whose entries
 * hold a number in it, on a card that adds up its day: water of 750 ml in three glasses and then
 * one glass of 500 ml the next day went down, although that glass is larger than the last one of
 * the day before. Undefined when either day has no number. Totals are compared without float
 * artefacts (0.1 + 0.2 against 0.3 is flat).
 */
function totalTrendDir(
  rows: unknown,
  field: string,
  day: string,
  dateField: string,
): TrendDirection | undefined {
  const index = indexDatedRows(rows, dateField);
  const total = (d: string): { sum: number; decimals: number } | null => {
    const [from, to] = dayRange(index, d);
    const ns: number[] = [];
    for (let i = from; i < to; i++) {
      const n = toFiniteNumber(getValue(index.items[i].row, field));
      if (n !== null) ns.push(n);
    }
    return ns.length === 0 ? null : { sum: ns.reduce((a, b) => a + b, 0), decimals: mostDecimals(ns) };
  };
  const cur = total(day);
  if (cur === null) return undefined;
  for (let i = lastOnOrBefore(index, day, true); i >= 0; ) {
    const earlier = index.items[i].day;
    const was = total(earlier);
    if (was !== null) {
      const delta = cleanNumber(cur.sum - was.sum, Math.max(cur.decimals, was.decimals));
      return delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat';
    }
    i = dayRange(index, earlier)[0] - 1;
  }
  return undefined;
}

/**
 * The day of a card that adds up its day as one row (`sumEntries`): its entries' numbers added
 * up, so eight glasses logged one by one mark the day as eight, not as the last glass.
 */
function dayTotal(rowsOfDay: readonly unknown[] | null | undefined, dateField = 'date'): Obj | undefined {
  const entries = Array.isArray(rowsOfDay) ? rowsOfDay.filter(isObj) : [];
  return sumEntries(entries, [dateField, 'time']);
}

/**
 * How a day cell shows the markers of several cards: the first `max` (default 3) glyphs and how
 * many more there are, shown as `+N` (docs/MANIFEST-SCHEMA.md "calendar"). Empty glyphs are dropped.
 */
export function layoutDayCell(
  markers: readonly (string | null | undefined)[],
  max: number = MAX_DAY_GLYPHS,
): { glyphs: string[]; overflow: number } {
  const all = markers.filter((m): m is string => typeof m === 'string' && m.trim() !== '');
  const shown = Math.max(0, Math.floor(max));
  return { glyphs: all.slice(0, shown), overflow: Math.max(0, all.length - shown) };
}
