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
import { dateTimeParts, instantMs } from '../common/dates.js';
import { instantOf } from './zoned-time.js';

const MIDNIGHT = { hour: 0, minute: 0, second: 0, millisecond: 0 };
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The instant (epoch ms) `value` names, reading a date or a time without an offset in
 * `timeZone` (the person's), or null when it is not such a date-time. The parts are read by the
 * rule every date field follows (src/common/dates.ts dateTimeParts): a real day and clock, an
 * offset of at most ±14:00 (`+14:01` and `-14:30` name no place on Earth).
 */
export function pauseUntilInstant(value: string, timeZone: string): number | null {
  const p = dateTimeParts(value.trim());
  if (!p) return null;
  const t = p.time ?? MIDNIGHT;
  if (p.offsetMinutes !== undefined) return instantMs(p.day, t, p.offsetMinutes);
  return instantOf(p.day, `${pad(t.hour)}:${pad(t.minute)}`, timeZone) + t.second * 1000 + t.millisecond;
}
