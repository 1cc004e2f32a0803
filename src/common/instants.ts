/**
 * Instants a person or a program sends (`paused_until`, `?since=`): an ISO 8601 date-time read
 * by the same rules as a date field (src/common/dates.ts `dateTimeParts`), never by `Date.parse`
 * alone, which rolls an impossible day over (2024-02-30 becomes March 1st) and takes years past
 * 9999 whose stamp no longer sorts as text.
 */
import { dateTimeParts, instantMs } from './dates.js';

/** How an instant must be written, for a refusal naming the field. */
export const INSTANT_MESSAGE =
  'must be an ISO date-time such as 2026-05-01T08:00:00Z, on a real day and clock';

/**
 * The UTC stamp (`toISOString`) of `text`, or null when it is no instant with a four-digit year.
 * `text` is a real day, optionally with a real time and `Z` or an offset; a time without one is
 * read on the server's clock, a day alone as its midnight UTC (as `Date.parse` reads them).
 */
export function instantStamp(text: unknown): string | null {
  const p = dateTimeParts(text);
  if (!p) return null;
  let ms: number;
  if (!p.time) ms = instantMs(p.day, { hour: 0, minute: 0, second: 0, millisecond: 0 }, 0);
  else if (p.offsetMinutes !== undefined) ms = instantMs(p.day, p.time, p.offsetMinutes);
  else {
    const local = new Date(0);
    local.setFullYear(Number(p.day.slice(0, 4)), Number(p.day.slice(5, 7)) - 1, Number(p.day.slice(8, 10)));
    local.setHours(p.time.hour, p.time.minute, p.time.second, p.time.millisecond);
    ms = local.getTime();
  }
  const stamp = new Date(ms).toISOString();
  return /^\d{4}-/.test(stamp) ? stamp : null;
}
