/**
 * What an `adherence-report` shows (docs/MANIFEST-SCHEMA.md "Reports-view config": `showCompliance`
 * default true, `showInventory`): for each scheduled item, the share of its doses taken over a
 * rolling window, and, when the item records its stock, how long that lasts. Built on the shared
 * schedule engine (src/common/schedule.ts: due days, doses per day, check-offs). Shared by the
 * browser and the server: no Node imports.
 *
 * Rules (what a person reading the report expects):
 * - The window is the `windowDays` (default 30) days ending on the day the report is drawn for.
 *   That day counts only the doses already taken: a dose due this evening is not "missed" at noon.
 * - An item counts from the day it was tracked (`trackedSince`: its schedule's start, else its
 *   first recorded dose), never from before: a card set up this week is not "missed" for the
 *   weeks before it existed.
 * - A dose counts as taken when its `takenAt` is set; `takenAt: null` marks a missed dose (the
 *   same as no record). Doses beyond the day's count, or on days not due, are `extra`.
 * - Stock: an item's `inventory` (or `stock`, `remaining`, `supply`, `onHand`, `quantity`) as a
 *   number of doses on hand, or an object `{count | remaining | left | onHand | quantity, unit?}`.
 *   The report walks the schedule forward from the report day (today's untaken doses first) and
 *   says on which day the stock runs out, within MAX_STOCK_DAYS.
 */

import { addDays } from './dates.js';
import { cleanNumber, toFiniteNumber } from './numbers.js';
import {
  type Adherence,
  adherence,
  dayText,
  dosesDue,
  dosesOf,
  isTaken,
  takenCount,
  trackedSince,
} from './schedule.js';
import { groupReportItems, type ReportItem, reportItems } from './schedule-groups.js';

/** Default length of the compliance window, in days. */
export const DEFAULT_ADHERENCE_WINDOW_DAYS = 30;

/** Longest window accepted (a year). */
export const MAX_ADHERENCE_WINDOW_DAYS = 366;

/** How far ahead the stock walk looks, in days. */
export const MAX_STOCK_DAYS = 730;

/** Stock on hand and how long it lasts. */
export interface Stock {
  /** Doses (or units) left, as recorded. */
  left: number;
  unit?: string;
  /** The last day the stock covers (`YYYY-MM-DD`); null when it covers none, or never runs out (`days` null). */
  lastDay: string | null;
  /** Days covered from the report day on (0: not even today's doses); null when nothing is due within MAX_STOCK_DAYS. */
  days: number | null;
}

/** One item's line in the report. */
export interface ItemAdherence {
  name: string;
  dose?: string;
  /** Doses due in the window (today: only those taken). */
  scheduled: number;
  /** Doses taken of those. */
  taken: number;
  /** Doses taken beyond the schedule. */
  extra: number;
  /** taken / scheduled, or null when nothing was due. */
  rate: number | null;
  /** The day of the latest taken dose, if any. */
  lastTaken: string | null;
  /** Present when the item records stock. */
  stock?: Stock;
}

/** A report group with its items' lines. */
export interface AdherenceGroup {
  id: string;
  label: string | null;
  items: ItemAdherence[];
}

/** The whole report. */
export interface AdherenceReport {
  /** First and last day of the window. */
  from: string;
  to: string;
  /**
   * The first day any item was counted from (`trackedSince`, never before `from`): later than
   * `from` when every item started being tracked inside the window.
   */
  countedFrom: string;
  windowDays: number;
  groups: AdherenceGroup[];
  /** Sums over every item (each item once, even when in several groups). */
  overall: { scheduled: number; taken: number; rate: number | null };
  /** True when at least one item records stock. */
  hasStock: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const STOCK_KEYS = ['inventory', 'stock', 'remaining', 'supply', 'onHand', 'quantity'];
const STOCK_COUNT_KEYS = ['count', 'remaining', 'left', 'onHand', 'quantity', 'doses'];

/** The stock an item records (see the file comment), or null. */
export function stockOf(item: unknown): { left: number; unit?: string } | null {
  if (!isObj(item)) return null;
  for (const k of STOCK_KEYS) {
    const v = item[k];
    const n = toFiniteNumber(v);
    if (n !== null && n >= 0) return { left: n };
    if (isObj(v)) {
      for (const c of STOCK_COUNT_KEYS) {
        const m = toFiniteNumber(v[c]);
        if (m !== null && m >= 0) {
          const unit = typeof v.unit === 'string' && v.unit.trim() !== '' ? v.unit.trim() : undefined;
          return unit ? { left: m, unit } : { left: m };
        }
      }
    }
  }
  return null;
}

/**
 * How long `left` doses last from `date` on: today's untaken due doses first, then each later
 * day's due doses. `days`: the days covered counting `date` as the first (0: it does not even
 * cover today's doses), up to MAX_STOCK_DAYS + 1; `lastDay`: the last covered day (null when `days`
 * is 0). Both null when the schedule asks for nothing within MAX_STOCK_DAYS (the stock never runs
 * out by it).
 */
export function stockLastDay(
  item: unknown,
  left: number,
  date: string,
): { lastDay: string | null; days: number | null } {
  let remaining = left;
  let covered = 0;
  let anyDue = false;
  for (let i = 0; i <= MAX_STOCK_DAYS; i++) {
    const day = addDays(date, i);
    const due = dosesDue(item, day);
    const need = i === 0 ? Math.max(0, due - takenCount(item, day)) : due;
    if (need > 0) anyDue = true;
    if (need > remaining) break;
    remaining = cleanNumber(remaining - need);
    covered = i + 1;
  }
  if (!anyDue) return { lastDay: null, days: null };
  return { lastDay: covered > 0 ? addDays(date, covered - 1) : null, days: covered };
}

function lastTakenDay(item: unknown): string | null {
  let best: string | null = null;
  for (const d of dosesOf(item)) {
    if (!isTaken(d)) continue;
    const day = dayText(d.scheduledDate) ?? dayText(d.takenAt);
    if (day && (best === null || day > best)) best = day;
  }
  return best;
}

/**
 * An item's adherence from `from` to `to` (inclusive `YYYY-MM-DD`) as it stands on `today` (the
 * person's day), by this file's rules: days before the item was tracked (`trackedSince`; nothing
 * recorded: none before today) and days after today are not counted, and today counts only the
 * doses already taken. `from`: the first day counted (later than asked when tracking began
 * inside the range). Instants are filed under their day in `timeZone`.
 */
export function adherenceSoFar(
  item: unknown,
  from: string,
  to: string,
  today: string,
  timeZone?: string,
): Adherence & { from: string } {
  const since = trackedSince(item, timeZone) ?? today;
  const first = since > from ? since : from;
  const last = to < today ? to : addDays(today, -1);
  const before =
    first <= last ? adherence(item, first, last, timeZone) : { scheduled: 0, taken: 0, extra: 0 };
  let { scheduled, taken, extra } = before;
  if (first <= today && today <= to) {
    const dueToday = dosesDue(item, today);
    const takenToday = takenCount(item, today, timeZone);
    const todayCounted = Math.min(dueToday, takenToday);
    scheduled += todayCounted;
    taken += todayCounted;
    extra += Math.max(0, takenToday - dueToday);
  }
  return { scheduled, taken, extra, rate: scheduled > 0 ? taken / scheduled : null, from: first };
}

function itemLine(it: ReportItem, windowFrom: string, date: string): { line: ItemAdherence; from: string } {
  const item = it.ref.item;
  const { scheduled, taken, extra, rate, from } = adherenceSoFar(item, windowFrom, date, date);
  const line: ItemAdherence = {
    name: it.name,
    scheduled,
    taken,
    extra,
    rate,
    lastTaken: lastTakenDay(item),
  };
  if (it.dose) line.dose = it.dose;
  const stock = stockOf(item);
  if (stock) line.stock = { ...stock, ...stockLastDay(item, stock.left, date) };
  return { line, from };
}

/**
 * The report of a card's data for `date` (the person's calendar day). `viewConfig` may carry
 * `windowDays` (1..MAX_ADHERENCE_WINDOW_DAYS, else the default) and the timeline's `itemsPath`;
 * `meta` is the card's meta (for a card-level `meta.schedule`). Never throws.
 */
export function adherenceReport(
  data: unknown,
  date: string,
  viewConfig?: unknown,
  meta?: unknown,
): AdherenceReport {
  const cfg = isObj(viewConfig) ? viewConfig : {};
  const w = toFiniteNumber(cfg.windowDays);
  const windowDays =
    w !== null && w >= 1 ? Math.min(MAX_ADHERENCE_WINDOW_DAYS, Math.floor(w)) : DEFAULT_ADHERENCE_WINDOW_DAYS;
  const from = addDays(date, -(windowDays - 1));
  const items = reportItems(data, { itemsPath: cfg.itemsPath, meta });
  const lines = new Map<ReportItem, ItemAdherence>();
  let countedFrom: string | null = null;
  for (const it of items) {
    const r = itemLine(it, from, date);
    lines.set(it, r.line);
    if (countedFrom === null || r.from < countedFrom) countedFrom = r.from;
  }
  const groups = groupReportItems(data, items).map((g) => ({
    id: g.id,
    label: g.label,
    items: g.items.map((it) => lines.get(it) as ItemAdherence),
  }));
  let scheduled = 0;
  let taken = 0;
  for (const l of lines.values()) {
    scheduled += l.scheduled;
    taken += l.taken;
  }
  return {
    from,
    to: date,
    countedFrom: countedFrom ?? from,
    windowDays,
    groups,
    overall: { scheduled, taken, rate: scheduled > 0 ? taken / scheduled : null },
    hasStock: [...lines.values()].some((l) => l.stock !== undefined),
  };
}
