/**
 * Dates in the browser. "Today" is the calendar date in the person's time zone, which is the
 * browser's (it is what the app reports to the server, case P06). Day arithmetic comes from the
 * code the server uses too (src/common/dates.ts).
 */
import { addDays, daysBetween, isIsoDate, todayIn } from '../../src/common/dates.js';
import { browserTimeZone } from './instance.js';

export { addDays, isIsoDate };

/** Today's date `YYYY-MM-DD` in the browser's zone. */
export function today(): string {
  return todayIn(browserTimeZone());
}

/** "Monday 20 April" (with the year when it is not the current one). */
export function longDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  const sameYear = date.slice(0, 4) === today().slice(0, 4);
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: sameYear ? undefined : 'numeric',
    timeZone: 'UTC',
  }).format(d);
}

/** "20 April" (with the year when it is not the current one). */
export function dayMonth(date: string): string {
  const sameYear = date.slice(0, 4) === today().slice(0, 4);
  return new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'long',
    year: sameYear ? undefined : 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** "Today", "Yesterday", or the weekday ("Friday") of `date` seen from `now`. */
export function dayName(date: string, now: string): string {
  const back = daysBetween(date, now);
  if (back === 0) return 'Today';
  if (back === 1) return 'Yesterday';
  return new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** "April 2026". */
export function monthTitle(year: number, month: number): string {
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 15)),
  );
}
