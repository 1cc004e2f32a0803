/**
 * Wall-clock time in an IANA time zone, with Intl only (no time zone data of our own). A
 * reminder is a wall-clock time ("21:00 in Europe/Berlin"); the scheduler needs the instant it
 * happens. Two days a year that is not one-to-one: in a spring-forward gap the wall time does
 * not exist and it happens when the clocks have jumped (02:30 in Berlin is 03:30 summer time,
 * the time shifted by the gap), and in a fall-back hour it exists twice and happens at the first
 * of the two. Either way a slot has one instant, so it fires once.
 */

import { utcMs } from '../common/dates.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** A wall-clock reading: `date` `YYYY-MM-DD`, `time` `HH:MM`, `weekday` 0 = Sunday. */
export interface WallClock {
  date: string;
  time: string;
  weekday: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

function fields(ms: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number } {
  const out = { y: 0, mo: 0, d: 0, h: 0, mi: 0 };
  let bc = false;
  for (const p of formatter(timeZone).formatToParts(ms)) {
    // the year 0 of ISO 8601 is 1 BC to Intl, -1 is 2 BC
    if (p.type === 'era') bc = p.value === 'BC';
    else if (p.type === 'year') out.y = Number(p.value);
    else if (p.type === 'month') out.mo = Number(p.value);
    else if (p.type === 'day') out.d = Number(p.value);
    else if (p.type === 'hour') out.h = Number(p.value);
    else if (p.type === 'minute') out.mi = Number(p.value);
  }
  if (bc) out.y = 1 - out.y;
  return out;
}

/** A year as ISO 8601 writes it in a date: four digits (`0099`). */
const year4 = (y: number) => (y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0'));

/** The wall clock in `timeZone` at instant `ms` (epoch milliseconds), to the minute. */
export function wallClockAt(ms: number, timeZone: string): WallClock {
  const f = fields(ms, timeZone);
  const date = `${year4(f.y)}-${pad(f.mo)}-${pad(f.d)}`;
  return {
    date,
    time: `${pad(f.h)}:${pad(f.mi)}`,
    weekday: new Date(utcMs(f.y, f.mo - 1, f.d)).getUTCDay(),
  };
}

/** UTC offset of `timeZone` at instant `ms`, in ms (east of Greenwich positive), to the minute. */
export function offsetAt(ms: number, timeZone: string): number {
  const f = fields(ms, timeZone);
  const asUtc = utcMs(f.y, f.mo - 1, f.d, f.h, f.mi);
  return asUtc - Math.floor(ms / 60_000) * 60_000;
}

/**
 * The instant (epoch ms) the wall-clock time `time` (`HH:MM`) on `date` (`YYYY-MM-DD`) happens
 * in `timeZone`: the first of two in a repeated hour, the time shifted forward by the gap when
 * the clocks skip it.
 */
export function instantOf(date: string, time: string, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const asUtc = utcMs(y, mo - 1, d, h, mi);
  // the offsets a day either side bracket any transition on this day
  const before = asUtc - offsetAt(asUtc - 86_400_000, timeZone);
  const after = asUtc - offsetAt(asUtc + 86_400_000, timeZone);
  const fits = (ms: number) => {
    const w = wallClockAt(ms, timeZone);
    return w.date === date && w.time === time;
  };
  const a = fits(before);
  const b = fits(after);
  if (a && b) return Math.min(before, after);
  if (a) return before;
  if (b) return after;
  // a gap: the wall time read with the offset in force before the jump lands after it
  return before;
}

/** `YYYY-MM-DD` shifted by `days` calendar days. */
export function shiftDate(date: string, days: number): string {
  const [y, mo, d] = date.split('-').map(Number);
  const t = new Date(utcMs(y, mo - 1, d + days));
  return t.toISOString().slice(0, 10);
}

/** Weekday of a `YYYY-MM-DD` date, 0 = Sunday. */
export function weekdayOfDate(date: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  return new Date(utcMs(y, mo - 1, d)).getUTCDay();
}
