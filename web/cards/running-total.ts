/**
 * A generic card whose day is a running total (src/common/day-total.ts): the shown day's entries
 * added up into one row, its trend against the day before (the same time of it while the day is
 * not over), the thresholds that may show before the day ends, and one sparkline point per day.
 */
import { addDays } from '../../src/common/dates.js';
import { compareSameTime, isSettledWhileRunning, sumEntries } from '../../src/common/day-total.js';
import { getValue } from '../../src/common/display-template.js';
import { cleanNumber, mostDecimals, toFiniteNumber } from '../../src/common/numbers.js';
import type { NumericPoint, TrendDirection } from '../../src/common/trend.js';
import { type CardRows, entriesOn, latestBefore } from './generic-card-index.js';

/** A running total's change: against the same time of the day before, or the whole earlier day. */
export interface TotalTrend {
  dir: TrendDirection;
  delta: number;
  decimals: number;
  /** The day compared with. */
  prevDate: string;
  /** True when compared with the earlier day up to the same time of day (the day is not over). */
  sameTime: boolean;
}

/** The rows of `day` added up into one (numbers summed, the rest from the last entry). */
export function dayTotalRow(
  ix: CardRows,
  day: string,
  dateField: string,
): Record<string, unknown> | undefined {
  return sumEntries(
    entriesOn(ix, day).map((e) => e.row),
    [dateField, 'date', 'time'],
  );
}

/**
 * The change of `field`'s day total on `day`. While `day` is today (`running`), only against the
 * day before up to `minuteNow` (null when its entries do not say when they were logged); a day
 * that is over against the whole of the latest earlier day whose entries hold a number in `field`.
 */
export function totalTrend(
  ix: CardRows,
  field: string,
  day: string,
  opts: { running: boolean; minuteNow: number; dateField: string },
): TotalTrend | null {
  const today = entriesOn(ix, day).map((e) => e.row);
  if (opts.running) {
    const prevDate = addDays(day, -1);
    const before = entriesOn(ix, prevDate).map((e) => e.row);
    const c = compareSameTime(today, before, field, opts.minuteNow, opts.dateField);
    return c ? { dir: c.dir, delta: c.delta, decimals: c.decimals, prevDate, sameTime: true } : null;
  }
  const sum = (rows: Record<string, unknown>[]) => {
    const ns = rows.map((r) => toFiniteNumber(getValue(r, field))).filter((n): n is number => n !== null);
    return ns.length === 0 ? null : { total: ns.reduce((a, b) => a + b, 0), decimals: mostDecimals(ns) };
  };
  const cur = sum(today);
  if (!cur) return null;
  // the latest earlier day whose entries hold a number in the field: a day holding only a note
  // (or another field) is passed over, as the arrow of a card that does not add up its day does
  let prev = latestBefore(ix, day);
  let was: { total: number; decimals: number } | null = null;
  while (prev?.day && !was) {
    was = sum(entriesOn(ix, prev.day).map((e) => e.row));
    if (!was) prev = latestBefore(ix, prev.day);
  }
  if (!was || !prev?.day) return null;
  const decimals = Math.max(cur.decimals, was.decimals);
  const delta = cleanNumber(cur.total - was.total, decimals);
  return {
    dir: delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat',
    delta,
    decimals,
    prevDate: prev.day,
    sameTime: false,
  };
}

/** The threshold rules that may colour a total while its day is not over (`isSettledWhileRunning`). */
export function settledRules(rules: unknown): unknown {
  return Array.isArray(rules) ? rules.filter(isSettledWhileRunning) : rules;
}

/** Points of several entries a day merged into one per day, by their sum, the last `n` days. */
export function sumPerDay(points: readonly NumericPoint[], n: number): NumericPoint[] {
  const out: NumericPoint[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && last.date === p.date) last.value = cleanNumber(last.value + p.value);
    else out.push({ ...p });
  }
  return out.slice(-n);
}
