/**
 * The end of a pause of all reminders (`paused_until` of `POST /api/notifications/global-state`),
 * read as ISO 8601 and nothing else. `Date.parse` was used before and took almost anything: "1.5"
 * and "12" as days in 2001 (a pause already over, answered 200), "2026-02-30T08:00Z" as 2 March,
 * a date alone as UTC midnight (the evening before for someone in Los Angeles) and a time
 * without an offset in the server's zone rather than the person's.
 *
 * - With `Z` or an offset (`2026-05-01T08:00:00+02:00`): that instant.
 * - A date and time without one (`2026-05-01T08:00`): that wall-clock time in the person's zone.
 * - A date alone (`2026-05-01`): the start of that calendar day in the person's zone.
 * - Anything else, an impossible day or a time no clock shows: null (the caller answers 400).
 */
import { isIsoDate } from '../common/dates.js';
import { instantOf } from './zoned-time.js';

const ISO =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The instant (epoch ms) `value` names, reading a date or a time without an offset in
 * `timeZone` (the person's), or null when it is not such a date-time.
 */
export function pauseUntilInstant(value: string, timeZone: string): number | null {
  const m = ISO.exec(value.trim());
  if (!m || !isIsoDate(m[1])) return null;
  const [, day, h = '00', mi = '00', sec = '00', frac = '', zone] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return null;
  const extraMs = Number(sec) * 1000 + Math.floor(Number(`0.${frac || '0'}`) * 1000);
  if (zone === undefined) return instantOf(day, `${h}:${mi}`, timeZone) + extraMs;
  const [y, mo, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, mo - 1, d, Number(h), Number(mi)) + extraMs;
  if (zone.toUpperCase() === 'Z') return wall;
  const digits = zone.slice(1).replace(':', '');
  const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
  if (oh > 14 || om > 59) return null;
  return wall - (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
}
