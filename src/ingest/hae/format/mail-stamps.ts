/**
 * Timestamps in the spelling of mail and HTTP headers (RFC 2822), with English month and
 * weekday names: what a Shortcut's Format Date action writes set to RFC 2822 (`Fri, 1 May 2026
 * 08:00:00 +0200`), and JavaScript's `toUTCString()` (`Fri, 01 May 2026 06:00:00 GMT`) and
 * `toString()` (`Fri May 01 2026 08:00:00 GMT+0200 (Central European Summer Time)`), as scripts
 * posting to the webhook send them. Each names one instant; the weekday is not checked.
 */
import { monthNumber } from './month-name-stamps.js';

/** `[Fri, ]1 May 2026 08:00[:00] (+0200|GMT|UT|UTC|Z)`: day, month, year, time, offset or zone. */
const RFC_2822 =
  /^(?:[a-z]{3},?\s+)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{1,2}:\d{2}(?::\d{2})?)\s*([+-]\d{4}|gmt|ut|utc|z)$/i;
/** `Fri May 01 2026 08:00:00 GMT+0200 (zone name)`: month, day, year, time, offset. */
const JS_DATE =
  /^[a-z]{3}\s+([a-z]{3})\s+(\d{1,2})\s+(\d{4})\s+(\d{2}:\d{2}:\d{2})\s+GMT([+-]\d{4})(?:\s+\([^)]*\))?$/i;

/**
 * `text` (trimmed) rewritten as `2026-05-01 08:00:00 +0200` (a GMT time as `2026-05-01T06:00:00Z`,
 * a time in UTC), or undefined when it is no stamp of these spellings.
 */
export function rewriteMailStamp(text: string): string | undefined {
  const rfc = RFC_2822.exec(text);
  if (rfc) return stamp(rfc[3], rfc[2], rfc[1], rfc[4], rfc[5]);
  const js = JS_DATE.exec(text);
  if (js) return stamp(js[3], js[1], js[2], js[4], js[5]);
  return undefined;
}

function stamp(year: string, monthName: string, day: string, time: string, zone: string): string | undefined {
  const month = monthNumber(monthName);
  if (month === 0) return undefined;
  const [h, m, s = '00'] = time.split(':');
  const date = `${year}-${two(String(month))}-${two(day)}`;
  const clock = `${two(h)}:${m}:${s}`;
  return /^[+-]/.test(zone) ? `${date} ${clock} ${zone}` : `${date}T${clock}Z`;
}

function two(s: string): string {
  return s.length === 1 ? `0${s}` : s;
}
