/**
 * Timestamps with the month's English name and no offset, as a Shortcut writes a date put into
 * a text as it is (the phone region's Medium style): `May 1, 2026 at 8:00 AM` (United States),
 * `1 May 2026 at 08:00` (Britain), a weekday before it, a comma instead of `at`, the narrow
 * no-break space iOS writes before AM/PM. Rewritten year first with the time as written, which
 * timestamps.ts reads as a local time (12-hour times included); the weekday is not checked.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The number (1–12) of an English month's name, whole or cut to at least three letters (`Sep`,
 * `Sept`, `September`; any case, a final dot dropped), or 0 for any other word.
 */
export function monthNumber(name: string): number {
  const word = name.toLowerCase().replace(/\.$/, '');
  if (word.length < 3) return 0;
  return MONTHS.findIndex((m) => m.startsWith(word)) + 1;
}

const SPACE = '[\\s\\u00a0\\u202f]';
const WEEKDAY = `(?:[a-z]+,?${SPACE}+)?`;
const TIME = `(?:,?${SPACE}+(?:at${SPACE}+)?(\\d{1,2}:\\d{2}(?::\\d{2})?(?:${SPACE}*[ap]\\.?m\\.?)?))?`;
/**
 * After a time, the zone of the Long style (`8:00:00 AM GMT+2`; an abbreviation, `PDT`, is
 * written as its offset before this is read, zone-abbreviations.ts) or an offset.
 */
const ZONE = `(?:${SPACE}+((?:GMT|UTC)(?:[+-]\\d{1,2}(?::?\\d{2})?)?|[+-]\\d{2}:?\\d{2}|Z))?`;
/** `[Monday, ]May 1, 2026[ at 8:00 AM[ GMT+2]]`: month, day, year, time, zone. */
const MONTH_FIRST = new RegExp(
  `^${WEEKDAY}([a-z]{3,9}\\.?)${SPACE}+(\\d{1,2}),${SPACE}+(\\d{4})${TIME}${ZONE}$`,
  'i',
);
/** `[Monday ]1 May 2026[ at 08:00[ +0200]]`: day, month, year, time, zone. */
const DAY_FIRST = new RegExp(
  `^${WEEKDAY}(\\d{1,2})${SPACE}+([a-z]{3,9}\\.?)${SPACE}+(\\d{4})${TIME}${ZONE}$`,
  'i',
);

/** `text` (trimmed) as `2026-05-01 8:00 AM[ GMT+2]`, or undefined when it is no stamp of this spelling. */
export function rewriteMonthNameStamp(text: string): string | undefined {
  const us = MONTH_FIRST.exec(text);
  if (us) return stamp(us[3], us[1], us[2], us[4], us[5]);
  const gb = DAY_FIRST.exec(text);
  if (gb) return stamp(gb[3], gb[2], gb[1], gb[4], gb[5]);
  return undefined;
}

function stamp(
  year: string,
  monthName: string,
  day: string,
  time: string | undefined,
  zone: string | undefined,
): string | undefined {
  const month = monthNumber(monthName);
  if (month === 0 || (time === undefined && zone !== undefined)) return undefined;
  const date = `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (time === undefined) return date;
  const clock = `${date} ${time.replace(/[\u00a0\u202f]/g, ' ')}`;
  return zone === undefined ? clock : `${clock} ${zone}`;
}
