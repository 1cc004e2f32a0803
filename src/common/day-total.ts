/**
 * Running totals: cards whose day is an amount that grows while the day goes on (steps, glasses
 * of water), added up from the day's entries (docs/MANIFEST-SCHEMA.md "Running totals"). A day
 * that is not over is not judged as a whole day: its total is "so far", it is compared with the
 * same time of the day before (when the entries say when they were logged), and only a threshold
 * the total cannot fall out of again (a `min` with no `max`) is shown before the day ends.
 * Shared by the server and the browser: no Node imports.
 */

import { minuteOfDateTime } from './dates.js';
import { getValue } from './display-template.js';
import { cleanNumber, decimalPlaces, mostDecimals, toFiniteNumber } from './numbers.js';
import { isCatchAll } from './thresholds.js';
import type { TrendDirection } from './trend.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * True when a card's Today headline is the day's running total: its view says so
 * (`runningTotal: true`), or the card adds up its day (`aggregate: "sum"` in the view, else in
 * its Trends config) and the view does not opt out (`runningTotal: false`, for an amount that is
 * complete once logged, such as a night's sleep).
 */
export function isRunningTotal(viewConfig: unknown, meta: unknown): boolean {
  const view = isObj(viewConfig) ? viewConfig : {};
  if (typeof view.runningTotal === 'boolean') return view.runningTotal;
  return addsUpDay(viewConfig, meta);
}

/**
 * True when a card's day is the sum of its entries (`aggregate: "sum"` in the view, else in its
 * Trends config: water by the glass, steps in parts): what tells a day, in a chart, a calendar
 * mark, a summary or a comparison, is the day's total, never one entry of it.
 */
export function addsUpDay(viewConfig: unknown, meta: unknown): boolean {
  const view = isObj(viewConfig) ? viewConfig : {};
  const trends = isObj(meta) && isObj(meta.trends) ? meta.trends : {};
  return (view.aggregate ?? trends.aggregate) === 'sum';
}

/**
 * One row standing for a day's entries (oldest first): the last entry's fields, with every field
 * holding a number in some entry replaced by the sum over the entries that have one (cleaned of
 * float artefacts). `skip` names fields never added (the date field, `time`). Undefined for no
 * entries.
 */
export function sumEntries(
  entries: readonly Obj[],
  skip: readonly string[] = ['date', 'time'],
): Obj | undefined {
  if (entries.length === 0) return undefined;
  const out: Obj = { ...entries[entries.length - 1] };
  const sums = new Map<string, number>();
  for (const e of entries) {
    for (const [k, v] of Object.entries(e)) {
      if (skip.includes(k) || typeof v === 'boolean') continue;
      const n = toFiniteNumber(v);
      if (n !== null) sums.set(k, (sums.get(k) ?? 0) + n);
    }
  }
  for (const [k, total] of sums) out[k] = cleanNumber(total);
  return out;
}

const TIME_RE = /^(\d{1,2}):(\d{2})/;

/**
 * When in its day an entry was logged, as minutes after midnight: its `time` field ("07:30"),
 * else the time of its date field when that holds one: a local timestamp as written
 * ("2026-04-20T07:30"), an instant (`Z` or an offset) on the clock of `timeZone` (default: the
 * process's zone, in the browser the person's), where its day is filed too: `…T03:30Z` is 20:30
 * of the evening before in Los Angeles, not 03:30. Null when the entry does not say.
 */
export function minuteOfDay(row: unknown, dateField = 'date', timeZone?: string): number | null {
  const t = getValue(row, 'time');
  const m = typeof t === 'string' ? TIME_RE.exec(t.trim()) : null;
  if (!m) return minuteOfDateTime(getValue(row, dateField), timeZone);
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/** The comparison of a running total with the same time of the day before. */
export interface SameTimeComparison {
  dir: TrendDirection;
  /** Today's total so far minus the earlier day's total up to the same minute. */
  delta: number;
  /** The earlier day's total up to the same minute. */
  prev: number;
  /** Decimals `delta` was rounded to. */
  decimals: number;
}

/**
 * Compares the total of `field` in `today` (the entries so far) with the total of the entries of
 * `before` (the previous day) logged up to `minute` (minutes after midnight, now). Null when
 * either day has no number in `field`, or any entry of the previous day does not say when it
 * was logged (`minuteOfDay`): then the two cannot be compared fairly, and the card says "so far"
 * instead.
 */
export function compareSameTime(
  today: readonly Obj[],
  before: readonly Obj[],
  field: string,
  minute: number,
  dateField = 'date',
): SameTimeComparison | null {
  const numbers = (rows: readonly Obj[]) =>
    rows.map((r) => toFiniteNumber(getValue(r, field))).filter((n): n is number => n !== null);
  const now = numbers(today);
  const earlier = before.filter((r) => toFiniteNumber(getValue(r, field)) !== null);
  if (now.length === 0 || earlier.length === 0) return null;
  let prev = 0;
  for (const r of earlier) {
    const at = minuteOfDay(r, dateField);
    if (at === null) return null;
    if (at <= minute) prev += toFiniteNumber(getValue(r, field)) as number;
  }
  const current = now.reduce((a, b) => a + b, 0);
  const decimals = Math.max(mostDecimals(now), decimalPlaces(prev));
  const delta = cleanNumber(current - prev, decimals);
  return { dir: delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat', delta, prev: cleanNumber(prev), decimals };
}

/**
 * True when a threshold rule's verdict on a total cannot change before the day ends: a total only
 * grows, so a rule with a `min` and no `max` (and no `eq`), once reached, stays reached.
 * "Goal reached" (min 8000) can show at noon; "Quiet day" (a catch-all, or a `max`) waits for the
 * day to be over.
 */
export function isSettledWhileRunning(rule: unknown): boolean {
  if (!isObj(rule) || isCatchAll(rule)) return false;
  return rule.min !== undefined && rule.max === undefined && rule.eq === undefined;
}
