/**
 * Combination cards (docs/MANIFEST-SCHEMA.md `combination-card`): a card
 * that owns no data and shows values read from other cards. `meta.view.combines[]` names each
 * source (`sourceId`), its `role` (`primary` | `secondary` | `annotation` | `ring-segment`), and
 * how to read and show it (`label`, `accessor`, `unit`, `emojiMap`, `goalDaily` or `goalWeekly`,
 * `colour`);
 * `meta.view.layout` is `stack` or `rings` (`chart` is reserved, anything else is `stack`).
 *
 * `resolveCombination` turns that config plus the source cards' data into what the renderer
 * draws, one entry per usable `combines[]` item with its state:
 * - `no-source`: no `sourceId`, or no card with that id;
 * - `no-goal`: a ring segment without a positive finite `goalDaily` or `goalWeekly`;
 * - `no-entry`: the source has no row for the day;
 * - `no-accessor-match`: it has rows, but none holds a value at the accessor (for a ring, a number);
 * - `ok`: a value was found.
 * Shared by the browser (the renderer) and the server (agents may describe the card the same
 * way): no Node imports, no I/O.
 *
 * Reading rules (what a person expects):
 * - The day: the card's `dateContext` `"latest"` reads each source's most recent day up to the
 *   day shown (as a generic card's `"latest"` does); anything
 *   else (default `"viewedDate"`) reads the day shown. Each source's own `meta.view.dateField`
 *   (default `date`) names its rows' date.
 * - Several rows on one day: a ring segment adds them up, since `goalDaily` is a daily total
 *   (two glasses of 0.4 L fill a 0.8 L ring); the other roles show the latest entry of the day
 *   that has a value, as the calendar does ("the latest entry wins").
 * - A ring segment with `goalWeekly` (which wins over `goalDaily`) adds up the rows of the
 *   week holding the day ("5 workouts a week" starts again each Monday, or on the first day of
 *   the person's week: `weekStartsOn`, Sunday in the United States).
 * - A source whose data is one object (not a list of rows) is read as that single row, whatever
 *   the day.
 * - Accessor: a dotted path; when absent, the first key of the row that is not its date and holds
 *   a string, number or boolean ("default first non-date scalar").
 * - Numbers are shown and compared without float artefacts: 0.7 + 0.1 of a 0.8 goal is
 *   a ratio of 1 and complete; non-finite values never count.
 */

import { cssColour } from './css-colour.js';
import { addDays } from './dates.js';
import {
  CHECK_MARK,
  type EmojiMap,
  getValue,
  isEmptyValue,
  lookupEmoji,
  valueText,
} from './display-template.js';
import { cleanNumber, numberText, toFiniteNumber } from './numbers.js';
import { dayOf } from './trend.js';

/** The roles a `combines[]` entry can take (`bar-series` is reserved and not drawn). */
export const COMBINATION_ROLES = ['primary', 'secondary', 'annotation', 'ring-segment'] as const;

/** One of `COMBINATION_ROLES`. */
export type CombinationRole = (typeof COMBINATION_ROLES)[number];

/** How the card lays its sources out. */
export type CombinationLayout = 'stack' | 'rings';

/** The outcome of reading one source (docs/MANIFEST-SCHEMA.md "per-source resolution states"). */
export type CombineState = 'ok' | 'no-source' | 'no-entry' | 'no-accessor-match' | 'no-goal';

/** What the resolver is told about one source card. */
export interface CombinationSource {
  /** The source card's `meta` (its `label`, and `view.dateField`); may be absent. */
  meta?: unknown;
  /** The source card's data block: dated rows, one object, or anything else. */
  data: unknown;
}

/** Finds a source card by id; undefined when there is no such card (or it is not loaded yet). */
export type SourceLookup = (id: string) => CombinationSource | undefined;

/** One `combines[]` entry, resolved. */
export interface ResolvedCombine {
  /** Position in `combines[]`. */
  index: number;
  /** The source card id ('' when the entry names none). */
  sourceId: string;
  role: CombinationRole;
  /** `label` of the entry, else the source card's label, else the source id. */
  label: string;
  state: CombineState;
  /** The accessor used (as written, or detected); absent when none could be found. */
  accessor?: string;
  /** The value read: the row's value, or for a ring segment the day's numeric total. */
  value?: unknown;
  /**
   * The value as text: the entry's `emojiMap` emoji when it has one for the value, a boolean as ✅
   * or ❌, a number without float artefacts, other values as template text; '' when no value.
   */
  text: string;
  /** `unit` of the entry, when a non-empty string. */
  unit?: string;
  /** `colour` of the entry, when a plain CSS colour (see `cssColour`). */
  colour?: string;
  /** The day (`YYYY-MM-DD`) of the rows read; absent for single-object sources or no entry. */
  date?: string;
  /** Ring segments: the goal (positive, finite), for the day or, with `period: 'week'`, the week. */
  goalDaily?: number;
  /** Ring segments: `week` when the goal is `goalWeekly` (the rows of the person's week count). */
  period?: 'day' | 'week';
  /** Ring segments with a weekly goal: the first day of the week read (a Monday, or the person's first weekday). */
  weekStart?: string;
  /** Ring segments: value / goalDaily, unclamped, without float artefacts. */
  ratio?: number;
  /** Ring segments: how full the ring is drawn, `min(ratio, 1)`. */
  fill?: number;
  /** Ring segments: the goal is reached (`ratio >= 1`). */
  complete?: boolean;
}

/** A `combines[]` entry that is not drawn, and why. */
export interface IgnoredCombine {
  index: number;
  reason: string;
}

/** What a combination card shows. */
export interface ResolvedCombination {
  layout: CombinationLayout;
  entries: ResolvedCombine[];
  ignored: IgnoredCombine[];
}

/** Options of `resolveCombination`. */
export interface ResolveOptions {
  /** The day shown (`YYYY-MM-DD`, the person's calendar day). */
  date: string;
  /**
   * The day the person's weeks start on (0 Sunday … 6 Saturday; default 1, Monday), as their
   * calendar lays weeks out (locale-format.ts `firstDayOfWeek`): a weekly goal counts that week.
   */
  weekStartsOn?: number;
}

/** Shown for a false boolean (a true one is `CHECK_MARK`). */
export const CROSS_MARK = '❌';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** `meta.view.layout` as drawn: `rings`, else `stack` (`chart` is reserved; unknown values stack). */
export function layoutOf(viewConfig: unknown): CombinationLayout {
  return isObj(viewConfig) && viewConfig.layout === 'rings' ? 'rings' : 'stack';
}

/** The distinct non-empty `sourceId`s of `viewConfig.combines`, in order (the cards to read). */
export function combinationSourceIds(viewConfig: unknown): string[] {
  const combines = isObj(viewConfig) ? viewConfig.combines : undefined;
  if (!Array.isArray(combines)) return [];
  const ids = new Set<string>();
  for (const c of combines) {
    const id = isObj(c) ? nonEmpty(c.sourceId) : undefined;
    if (id) ids.add(id);
  }
  return [...ids];
}

/** The date field of a source card's rows: its `meta.view.dateField`, else `date`. */
function dateFieldOf(meta: unknown): string {
  const view = isObj(meta) ? meta.view : undefined;
  return (isObj(view) && nonEmpty(view.dateField)) || 'date';
}

/** The scalar value types the default accessor looks for. */
function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * The default accessor of a row: its first key that is not the date field (nor `date`) and holds
 * a string, finite number or boolean. Undefined when there is none.
 */
export function defaultAccessor(row: unknown, dateField = 'date'): string | undefined {
  if (!isObj(row)) return undefined;
  return Object.keys(row).find((k) => k !== dateField && k !== 'date' && isScalar(row[k]));
}

/** The rows of one day (array order), and that day; `day` null means the single-object case. */
interface DayRows {
  rows: Obj[];
  day: string | null;
}

/** The first day (`YYYY-MM-DD`) of the week holding `day`, weeks starting on weekday `first` (0 Sunday). */
function weekStartOf(day: string, first: number): string {
  const back = (new Date(`${day}T00:00:00Z`).getUTCDay() - first + 7) % 7;
  return addDays(day, -back);
}

/** The rows of the week holding `day`, weeks starting on weekday `first`. */
function weekRows(data: unknown, dateField: string, day: string, first: number): Obj[] {
  if (!Array.isArray(data)) return [];
  const from = weekStartOf(day, first);
  const to = addDays(from, 6);
  return data.filter((r): r is Obj => {
    if (!isObj(r)) return false;
    const d = dayOf(getValue(r, dateField));
    return d !== null && d >= from && d <= to;
  });
}

/**
 * The rows a source contributes for `date` (or, when `latest`, its latest day up to `date`: a
 * past day looked back on never shows what came after it).
 */
function rowsFor(data: unknown, dateField: string, date: string, latest: boolean): DayRows {
  if (isObj(data)) return { rows: [data], day: null };
  if (!Array.isArray(data)) return { rows: [], day: date };
  let day = date;
  if (latest) {
    let best: string | null = null;
    for (const r of data) {
      const d = dayOf(getValue(r, dateField));
      if (d !== null && d <= date && (best === null || d > best)) best = d;
    }
    if (best === null) return { rows: [], day: null };
    day = best;
  }
  const rows = data.filter((r): r is Obj => isObj(r) && dayOf(getValue(r, dateField)) === day);
  return { rows, day };
}

/** A value as the card shows it. */
export function combineText(value: unknown, accessor: string, emojiMap: unknown): string {
  if (isEmptyValue(value)) return '';
  const emoji = isObj(emojiMap) ? lookupEmoji(emojiMap as EmojiMap, accessor, value, accessor) : undefined;
  if (emoji !== undefined) return emoji;
  if (typeof value === 'boolean') return value ? CHECK_MARK : CROSS_MARK;
  return valueText(value);
}

/** A positive finite `goalDaily` (numeric text is accepted, as elsewhere), else undefined. */
function goalOf(v: unknown): number | undefined {
  const n = toFiniteNumber(v);
  return n !== null && n > 0 ? n : undefined;
}

function resolveEntry(
  entry: Obj,
  index: number,
  role: CombinationRole,
  lookup: SourceLookup,
  date: string,
  latest: boolean,
  first: number,
): ResolvedCombine {
  const sourceId = nonEmpty(entry.sourceId) ?? '';
  const source = sourceId ? lookup(sourceId) : undefined;
  const sourceLabel = isObj(source?.meta) ? nonEmpty(source.meta.label) : undefined;
  const out: ResolvedCombine = {
    index,
    sourceId,
    role,
    label: nonEmpty(entry.label) ?? sourceLabel ?? sourceId,
    state: 'ok',
    text: '',
  };
  const unit = nonEmpty(entry.unit);
  if (unit) out.unit = unit;
  const colour = cssColour(entry.colour);
  if (colour) out.colour = colour;
  const given = nonEmpty(entry.accessor);
  if (given) out.accessor = given;
  const weekly = role === 'ring-segment' ? goalOf(entry.goalWeekly) : undefined;
  const goal = role === 'ring-segment' ? (weekly ?? goalOf(entry.goalDaily)) : undefined;
  if (goal !== undefined) {
    out.goalDaily = goal;
    out.period = weekly !== undefined ? 'week' : 'day';
  }

  if (!source) return { ...out, state: 'no-source' };
  if (role === 'ring-segment' && goal === undefined) return { ...out, state: 'no-goal' };

  const dateField = dateFieldOf(source.meta);
  const found = rowsFor(source.data, dateField, date, latest);
  const { day } = found;
  let rows = found.rows;
  if (weekly !== undefined && isObj(source.data) === false) {
    // the week of the day shown (or of the latest day): its rows so far
    const weekOf = day ?? date;
    out.weekStart = weekStartOf(weekOf, first);
    rows = weekRows(source.data, dateField, weekOf, first);
  }
  if (rows.length === 0) return { ...out, state: 'no-entry' };
  if (day !== null) out.date = day;
  const accessor = given ?? defaultAccessor(rows[rows.length - 1], dateField);
  if (!accessor) return { ...out, state: 'no-accessor-match' };
  out.accessor = accessor;

  if (role === 'ring-segment' && goal !== undefined) {
    let total: number | null = null;
    for (const r of rows) {
      const n = toFiniteNumber(getValue(r, accessor));
      if (n !== null) total = (total ?? 0) + n;
    }
    if (total === null) return { ...out, state: 'no-accessor-match' };
    const value = cleanNumber(total);
    const ratio = cleanNumber(value / goal);
    return {
      ...out,
      value,
      text: numberText(value),
      ratio,
      fill: Math.max(0, Math.min(ratio, 1)),
      complete: ratio >= 1,
    };
  }

  for (let i = rows.length - 1; i >= 0; i--) {
    const value = getValue(rows[i], accessor);
    if (!isEmptyValue(value)) return { ...out, value, text: combineText(value, accessor, entry.emojiMap) };
  }
  return { ...out, state: 'no-accessor-match' };
}

/**
 * Resolves a combination card for one day. `viewConfig` is the card's `meta.view` (`layout`,
 * `dateContext`, `combines`); `lookup(id)` gives a source card's meta and data, or undefined when
 * no such card exists. Entries that are not objects or whose `role` is missing, unknown or the
 * reserved `bar-series` are listed in `ignored` with the reason, never thrown on. A `combines`
 * that is not an array gives no entries.
 */
export function resolveCombination(
  viewConfig: unknown,
  lookup: SourceLookup,
  opts: ResolveOptions,
): ResolvedCombination {
  const cfg = isObj(viewConfig) ? viewConfig : {};
  const latest = cfg.dateContext === 'latest';
  const entries: ResolvedCombine[] = [];
  const ignored: IgnoredCombine[] = [];
  const combines = Array.isArray(cfg.combines) ? cfg.combines : [];
  combines.forEach((entry, index) => {
    if (!isObj(entry)) {
      ignored.push({ index, reason: 'not an object {sourceId, role}' });
      return;
    }
    const role = entry.role;
    if (!(COMBINATION_ROLES as readonly unknown[]).includes(role)) {
      ignored.push({
        index,
        reason:
          role === 'bar-series'
            ? 'role "bar-series" is reserved and not drawn yet'
            : `role ${role === undefined ? 'missing' : `"${valueText(role)}" unknown`} (one of ${COMBINATION_ROLES.join(', ')})`,
      });
      return;
    }
    const first = Number.isInteger(opts.weekStartsOn) ? (((opts.weekStartsOn as number) % 7) + 7) % 7 : 1;
    entries.push(resolveEntry(entry, index, role as CombinationRole, lookup, opts.date, latest, first));
  });
  return { layout: layoutOf(cfg), entries, ignored };
}
