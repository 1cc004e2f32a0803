/**
 * Dates in the browser. "Today" is the calendar date in the person's time zone, which is the
 * browser's (it is what the app reports to the server). Day arithmetic comes from the
 * code the server uses too (src/common/dates.ts).
 */
import { signal } from '@preact/signals';
import { addDays, daysBetween, isIsoDate, todayIn } from '../../src/common/dates.js';
import { day } from './format.js';
import { browserTimeZone } from './instance.js';

export { addDays, isIsoDate };

/** How long the browser's zone is remembered (reading it builds a formatter: slow on a big page). */
const ZONE_TTL_MS = 60_000;
let zone: { tz: string | undefined; at: number } | null = null;

/** How long an answer of `today()` is reused (a page of fifty cards asks hundreds of times). */
const TODAY_TTL_MS = 1_000;
let lastToday: { day: string; at: number } | null = null;

/** Today's date `YYYY-MM-DD` in the browser's zone (the zone re-read at most once a minute). */
export function today(): string {
  const now = Date.now();
  if (lastToday && now - lastToday.at >= 0 && now - lastToday.at < TODAY_TTL_MS) return lastToday.day;
  if (!zone || now - zone.at > ZONE_TTL_MS) zone = { tz: browserTimeZone(), at: now };
  lastToday = { day: todayIn(zone.tz), at: now };
  return lastToday.day;
}

/**
 * The person's calendar day, as a signal that moves on when the day changes while the page is
 * open (startDayWatch). A page reads `today()` as it draws, but nothing made it draw again at
 * midnight: Today left open overnight (a dashboard tab, the installed app brought back in the
 * morning) still showed yesterday as "Today", and an entry added there was dated yesterday.
 * The app's root reads this signal, so every view draws again with the new day.
 */
export const currentDay = signal(today());

/** How often an open page checks whether the day has changed, ms. */
const DAY_CHECK_MS = 30_000;

/** Moves `currentDay` on when the calendar day is another now. */
function checkDay(): void {
  // the zone is read afresh too: a phone that crossed into another zone has another day
  lastToday = null;
  zone = null;
  const d = today();
  if (d !== currentDay.value) currentDay.value = d;
}

/**
 * Keeps `currentDay` right while the page is open: checked every DAY_CHECK_MS and whenever the
 * page comes back (a phone suspends timers while the app is in the background). Call once.
 */
export function startDayWatch(): void {
  setInterval(checkDay, DAY_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkDay();
  });
  window.addEventListener('focus', checkDay);
  window.addEventListener('pageshow', checkDay);
}

/** Labels already made, by kind, date and the current year (the year decides whether it shows). */
const labels = new Map<string, string>();

function label(kind: string, date: string, make: (d: string, sameYear: boolean) => string): string {
  const year = today().slice(0, 4);
  const key = `${kind}|${date}|${year}`;
  let v = labels.get(key);
  if (v === undefined) {
    // a day not in the calendar ("2026-13-45" in a row) shows as written: formatting it would throw
    v = isIsoDate(date) ? make(date, date.slice(0, 4) === year) : date;
    if (labels.size > 5_000) labels.clear();
    labels.set(key, v);
  }
  return v;
}

/** "Monday 20 April" (with the year when it is not the current one). */
export function longDate(date: string): string {
  return label('long', date, (d, sameYear) => (sameYear ? day(d, 'long') : day(d, 'long-year')));
}

/** "20 April" (with the year when it is not the current one). */
export function dayMonth(date: string): string {
  return label('dm', date, (d, sameYear) => (sameYear ? day(d, 'day-month') : day(d, 'day-month-year')));
}

/** "Today", "Yesterday", or the weekday ("Friday") of `date` seen from `now`. */
export function dayName(date: string, now: string): string {
  const back = daysBetween(date, now);
  if (back === 0) return 'Today';
  if (back === 1) return 'Yesterday';
  return label('wd', date, (d) => day(d, 'weekday'));
}

/** "April 2026". */
export function monthTitle(year: number, month: number): string {
  return day(`${year}-${String(month).padStart(2, '0')}-15`, 'month-year');
}
