/**
 * Timestamps spelled otherwise than Health Auto Export writes them, as scripts, Shortcuts and
 * other exporters send them to the same webhook (and the app itself inside some sections): read
 * by rewriting them into a spelling timestamps.ts reads, only after that spelling failed, so the
 * usual stamps cost nothing more. Only what can be read one way is rewritten:
 *
 * - seconds or milliseconds since 1970 (a JSON number, or digits as text): 10 digits before the
 *   point are seconds, 13 milliseconds (both from September 2001 to 2286). Anything else (a
 *   9-digit number is 1990s seconds or seconds since 2001, Apple's own epoch) is not guessed.
 *   Such a time carries no offset: it is read as UTC, like a stamp ending in `Z`.
 * - year first with slashes or dots, `2026/05/19 08:00:00 -0700`, `2026.5.19`.
 * - day and month first, `19/05/2026 08:00`, `05-19-2026`, en-GB's `19/05/2026, 08:00:00`: read
 *   when only one order is a date (one of the two is above 12, or both are equal); with dots,
 *   `19.05.2026`, always day first (every region that writes dots does). `05/06/2026` is not.
 *   The year may have two digits, as Excel for Mac and regions whose short date has them write
 *   it when a file is saved again (`4/27/26 8:00`, `27.04.26`): it is the latest such year not
 *   after next year (`26` is 2026, `99` is 1999).
 * - after a date spelled so, a time written with dots (`20.00.00`, Finnish `klo 20.00`).
 * - mail and HTTP headers' spelling (RFC 2822) and JavaScript's (mail-stamps.ts).
 * - a zone's abbreviation of one offset after the time, `08:00:00 PDT` (zone-abbreviations.ts).
 * - the month's English name, as a Shortcut writes a date into a text (month-name-stamps.ts).
 */

import { rewriteMailStamp } from './mail-stamps.js';
import { rewriteMonthNameStamp } from './month-name-stamps.js';
import { dayHalfProblem } from './phone-calendars.js';
import { abbreviationProblem, withAbbreviationOffset } from './zone-abbreviations.js';

/** The text `parse` reads for `input`, or undefined when no rewrite applies. */
export function rewriteTimestamp(input: string): string | undefined {
  const text = input.trim();
  if (EPOCH_TEXT.test(text)) return epochIso(Number(text));
  const zoned = withAbbreviationOffset(text);
  if (zoned !== undefined) return rewriteTimestamp(zoned) ?? zoned;
  const mail = rewriteMailStamp(text);
  if (mail !== undefined) return mail;
  const named = rewriteMonthNameStamp(text);
  if (named !== undefined) return named;
  const ymd = YEAR_FIRST.exec(text);
  if (ymd) return `${ymd[1]}-${pad(ymd[3])}-${pad(ymd[4])}${colonTime(ymd[5])}`;
  const dmy = YEAR_LAST.exec(text);
  if (!dmy) return undefined;
  const order = dayMonth(Number(dmy[1]), Number(dmy[3]), dmy[2]);
  if (!order) return undefined;
  const [day, month] = order === 'dm' ? [dmy[1], dmy[3]] : [dmy[3], dmy[1]];
  return `${fullYear(dmy[4])}-${pad(month)}-${pad(day)}${colonTime(dmy[5])}`;
}

/**
 * The time after a date (`rest`: from the space or `T` on, or undefined) with its hours, minutes
 * and seconds apart by colons, as timestamps.ts reads them: `20.00.00` and `20.00`, as Finnish,
 * Danish and Indonesian clocks are written, become `20:00:00` and `20:00`, and Finnish's `klo`
 * ("at") before the time is dropped. A time with a fraction of a second is left as written.
 */
function colonTime(rest: string | undefined): string {
  if (rest === undefined) return '';
  return rest.replace(DOTTED_TIME, (_, space: string, h: string, _sep: string, m: string, sec?: string) =>
    sec === undefined ? `${space}${h}:${m}` : `${space}${h}:${m}:${sec}`,
  );
}

/**
 * A year written with two digits as the latest year ending in them that is not after next year
 * (`26` is 2026, `99` 1999 and `00` 2000, as of 2026); four digits as written. A spreadsheet
 * wrote those digits from a date it held, and no health sample is dated years ahead: read as this
 * century's, a 1999 reading saved as `12/31/99` would be stored on a day in 2099.
 */
function fullYear(year: string): string {
  if (year.length !== 2) return year;
  const inThisCentury = 2000 + Number(year);
  return String(inThisCentury > new Date().getUTCFullYear() + 1 ? inThisCentury - 100 : inThisCentury);
}

/**
 * `n` seconds or milliseconds since 1970 (module comment) as an ISO text in UTC with
 * milliseconds, `2025-05-19T15:00:00.123Z`; undefined when its size says neither.
 */
export function epochIso(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  let ms: number;
  if (n >= 1e9 && n < 1e10) ms = Math.round(n * 1000);
  else if (n >= 1e12 && n < 1e13) ms = Math.floor(n);
  else return undefined;
  return new Date(ms).toISOString();
}

/**
 * Why a stamp that could not be read was not, when more can be said than "unreadable": a
 * number that is not seconds or milliseconds since 1970, a day and month whose order cannot be
 * told, a 12-hour time whose morning or afternoon word is not known (phone-calendars.ts).
 * Undefined otherwise. Called only for stamps already found unreadable.
 */
export function timestampProblem(input: unknown): string | undefined {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (typeof input === 'number' || EPOCH_TEXT.test(text)) {
    return 'a number that is not seconds (10 digits) or milliseconds (13 digits) since 1970';
  }
  const dmy = YEAR_LAST.exec(text);
  if (dmy && Number(dmy[1]) <= 12 && Number(dmy[3]) <= 12 && dmy[2] !== '.') {
    return 'day and month order cannot be told; send the year first (YYYY-MM-DD)';
  }
  const several = abbreviationProblem(text);
  if (several !== undefined) return several;
  if (ZONE_NAME.test(text)) return 'a time zone name instead of an offset (+HHMM)';
  return dayHalfProblem(text);
}

/**
 * The reason a point is skipped for a stamp that cannot be read: `base` ("unreadable timestamp"),
 * followed by what timestampProblem says of `stamp` when it says something.
 */
export function unreadable(base: string, stamp: unknown): string {
  const problem = timestampProblem(stamp);
  return problem === undefined ? base : `${base}: ${problem}`;
}

/** Digits, maybe a fraction: a time since 1970 (negative times are no sample's). */
const EPOCH_TEXT = /^\d{1,16}(?:\.\d+)?$/;
/**
 * `2026/05/19…`, `2026.5.19…`, `2026-5-19…` (one separator throughout), then, after a comma or
 * not, a time (group 5) or nothing.
 */
const YEAR_FIRST = /^(\d{4})([/.-])(\d{1,2})\2(\d{1,2})(?:,?([\sT\u00a0\u202f].*))?$/;
/**
 * `19/05/2026…`, `05-19-2026…`, `19.05.2026…`, `4/27/26…` (a two-digit year), then (after a
 * comma, as en-GB writes) a time or nothing.
 */
const YEAR_LAST = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:,?([\s\u00a0\u202f].*))?$/;
/**
 * The start of a time after a date: spaces or `T`, maybe `klo`, then hours and minutes and maybe
 * seconds apart by dots or colons (one of them throughout), not followed by more digits or marks.
 */
const DOTTED_TIME = /^([\sT\u00a0\u202f]+)(?:klo[\s\u00a0]+)?(\d{1,2})([.:])(\d{2})(?:\3(\d{2}))?(?![\d.:])/;
/** A time followed by a zone's name or abbreviation (`PDT`, `CET`, `Europe/Paris`) and no offset. */
const ZONE_NAME = /\d:\d{2}(?::\d{2})?\s+(?:[A-Z]{3,5}|[A-Za-z]+\/[A-Za-z_]+)$/;

/**
 * What a stamp written day and month first (`05/13/2026 0:00`, `13/05/2026`) says of the order:
 * `dm` or `md` when only one order makes a date, `either` when both do (`05/06/2026`), undefined
 * for any other stamp (year first, dots, which are always day first, or no such date).
 */
export function dayOrderShown(text: string): 'dm' | 'md' | 'either' | undefined {
  const dmy = YEAR_LAST.exec(text.trim());
  if (!dmy || dmy[2] === '.') return undefined;
  return dayMonth(Number(dmy[1]), Number(dmy[3]), dmy[2]) ?? 'either';
}

/**
 * `text`, a stamp whose day and month order cannot be told alone (dayOrderShown `either`),
 * rewritten year first (`2026-05-06 0:00`) in `order` (`md`: month first), which other stamps of
 * the same file showed; `text` itself for any other stamp.
 */
export function inDayOrder(text: string, order: 'dm' | 'md'): string {
  const dmy = YEAR_LAST.exec(text.trim());
  if (!dmy || dmy[2] === '.' || dayMonth(Number(dmy[1]), Number(dmy[3]), dmy[2]) !== undefined) return text;
  const [day, month] = order === 'dm' ? [dmy[1], dmy[3]] : [dmy[3], dmy[1]];
  return `${fullYear(dmy[4])}-${pad(month)}-${pad(day)}${colonTime(dmy[5])}`;
}

/** Which of `a`/`b` is the day (`dm`: `a`), or undefined when both orders make a date. */
function dayMonth(a: number, b: number, separator: string): 'dm' | 'md' | undefined {
  if (separator === '.' || a === b) return 'dm';
  if (a > 12 && b <= 12) return 'dm';
  if (b > 12 && a <= 12) return 'md';
  return undefined;
}

function pad(s: string): string {
  return s.length === 1 ? `0${s}` : s;
}
