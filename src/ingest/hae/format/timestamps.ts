/**
 * Health Auto Export timestamps (docs/HEALTH-AUTO-EXPORT.md and the "Timestamps / time zones" pitfalls).
 *
 * The calendar date a sample belongs to is the LOCAL date written in the string, never the UTC
 * date: `2023-03-25 00:00:00 +1100` is 25 March although it is 24 March in UTC. The
 * offset is the phone's offset at that instant, so it changes inside one payload at daylight saving
 * (`-0400` / `-0500` in the hevy-metal file); each timestamp carries its own and is read on its own.
 * Nothing here consults the process time zone: a zone-less time is kept "floating" (pitfall: the
 * FreeReps incident where TZ-naive parsing stored everything twice, shifted by the offset).
 */

import { isKnownZone, onPersonsClock, onZoneClock, zoneOffsetAt } from './instant-zone.js';
import { ownString } from './own-string.js';
import { gregorianStamp, isBuddhistDate, withEnglishDayHalf } from './phone-calendars.js';
import { epochIso, rewriteTimestamp } from './timestamp-spellings.js';

/** One parsed HAE timestamp. */
export interface HaeTime {
  /** Local calendar date as written, `YYYY-MM-DD`. */
  date: string;
  /** Local wall-clock time as written, 24-hour `HH:MM:SS` (`00:00:00` for a date-only string). */
  time: string;
  /** The written UTC offset in minutes (east positive), or null when none was written. */
  offsetMinutes: number | null;
  /**
   * The instant, ms since the Unix epoch. For a zone-less (floating) string this is the wall clock
   * read as if it were UTC: good for ordering samples of one phone, never for "which day".
   */
  epochMs: number;
  /** True when only `YYYY-MM-DD` was written (the documented aggregated-sleep `date`). */
  dateOnly: boolean;
  /** The instant as written in one spelling (see canonicalTimestamp), made once per parse. */
  canonical: string;
  /**
   * True for an instant written in UTC without the phone's offset (`Z`, `UTC`, `GMT`, seconds
   * since 1970): parseHaeTimestamp gives its date and time on the person's clock (instant-zone.ts).
   */
  utc: boolean;
  /**
   * Set when the stamp names the zone it happened in (`… [Asia/Tokyo]`) and that zone's date is
   * not the date written: the date as written (an older import filed the sample there).
   */
  writtenDate?: string;
}

// Separators seen before am/pm and offsets: space, U+00A0 no-break space, U+202F narrow no-break
// space (pitfall 1: "2024-09-21 7:57:00 am +1000" from phones in a 12-hour region).
const SP = '[\\s\\u00a0\\u202f]';
// the zone: `Z`, an offset `+HHMM`/`+HH:MM`/`+HH`, or `GMT`/`UTC` with or without an offset (then
// also `GMT-7`), after spaces or a comma (`08:00:00, -0700`)
const PATTERN = new RegExp(
  '^(\\d{4})-(\\d{2})-(\\d{2})' +
    `(?:(?:[Tt]|${SP}+)(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?` +
    `(?:${SP}*([aApP])\\.?[mM]\\.?)?)?` +
    `(?:${SP}*(?:,${SP}*)?([Zz]|(?:UTC|GMT)(?:[+-]\\d{1,2}(?::?\\d{2})?)?|[+-]\\d{2}(?::?\\d{2})?))?$`,
);

/** A zone written as UTC itself, with no offset of the phone's. */
const UTC_WORD = /^(?:[Zz]|UTC|GMT)$/;

/** Largest offset accepted, minutes (UTC+14 is the easternmost zone in use). */
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * Parses an HAE timestamp: `2023-03-25 00:00:00 +1100`, the 12-hour form `2024-09-21 7:57:00 am
 * +1000` (any of space, U+00A0, U+202F before `am`/`pm`; `AM`, `a.m.` too), ISO 8601 with `T`
 * (`2025-08-12T08:17:51+01:00`, `Z`, fractions of a second), offsets `+HHMM`, `+HH:MM`, `+HH`,
 * `GMT+2`, after a space or a comma, a bare `YYYY-MM-DD`, and the compact `YYYYMMDDHHMMSS±HHMM`
 * of the first Health app exports; then, only when none of these matched, the spellings of
 * timestamp-spellings.ts (seconds or milliseconds since 1970 as a number or as digits, read as
 * UTC; `2026/05/19 08:00:00`; a day and month whose order can be told). Returns null for anything
 * else, or for impossible values (month 13, 30 February, 25:00, `13:00 pm`, offsets beyond
 * ±14:00); it never throws. Callers count the nulls (timestampProblem says more of some).
 *
 * An instant written in UTC (seconds since 1970, `Z`) carries no clock of the phone's: its date
 * and time are those of `zone`, the person's IANA zone (the process's when undefined), as
 * instant-zone.ts says.
 */
export function parseHaeTimestamp(input: unknown, zone?: string): Readonly<HaeTime> | null {
  if (typeof input === 'string' && input.charCodeAt(input.length - 1) === CLOSING_BRACKET)
    return parseNamingZone(input, zone);
  const t = parseZoneFree(input);
  return t?.utc ? onPersonsClock(t, zone) : t;
}

const CLOSING_BRACKET = 93;

/**
 * A stamp followed by the time zone it was recorded in, in brackets: what RFC 9557 (and
 * JavaScript's Temporal, `2026-06-02T23:30:00+09:00[Asia/Tokyo]`) writes, and what the Apple
 * Health import writes for a record whose metadata names its zone (`HKTimeZone`, records.ts).
 * The instant is the one written; its date and time are those of the zone named (a night slept
 * in Tokyo and exported in New York is dated on Tokyo's day). Further annotations
 * (`[u-ca=gregory]`) are passed over. A stamp with no offset is the wall clock of the zone. A
 * zone this runtime does not know is passed over too: the stamp is read as if it named none.
 */
function parseNamingZone(input: string, personsZone: string | undefined): Readonly<HaeTime> | null {
  const m = ZONE_SUFFIX.exec(input);
  if (!m) return null;
  const rest = m[1];
  const named = /^\[!?([^\]=]+)\]/.exec(m[2])?.[1].trim();
  const zone = named !== undefined && isKnownZone(named) ? named : undefined;
  const t = parseZoneFree(rest);
  if (!t || zone === undefined) return t?.utc ? onPersonsClock(t, personsZone) : t;
  if (t.offsetMinutes !== null) return onZoneClock(t, zone);
  // the wall clock of the zone: its offset at that wall time (asked twice, for a change of offset)
  let offset = zoneOffsetAt(t.epochMs, zone);
  offset = zoneOffsetAt(t.epochMs - offset * 60_000, zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return parseZoneFree(`${t.date} ${t.time} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`);
}

/** The stamp before its bracketed annotations, and the annotations (`[Asia/Tokyo][u-ca=gregory]`). */
const ZONE_SUFFIX = /^(.*?)[\s\u00a0\u202f]*((?:\[[^[\]]{1,64}\])+)$/s;

/** `stamp` without the bracketed annotations parseHaeTimestamp reads a zone from (itself when it has none). */
export function withoutZoneAnnotations(stamp: string): string {
  return ZONE_SUFFIX.exec(stamp)?.[1] ?? stamp;
}

/** parseHaeTimestamp before an instant in UTC is put on the person's clock (the same for every zone). */
function parseZoneFree(input: unknown): Readonly<HaeTime> | null {
  if (typeof input !== 'string') return typeof input === 'number' ? parseEpoch(input) : null;
  if (!isMidnight(input)) return parseAny(input);
  let cached = recent.get(input);
  if (cached === undefined) cached = older.get(input);
  if (cached !== undefined) return cached;
  const parsed = parseAny(input);
  if (recent.size >= CACHE_GENERATION) {
    older = recent;
    recent = new Map();
  }
  // a copy: the string may be a view into a 64 KiB chunk of a streamed body (own-string.ts)
  recent.set(ownString(input), parsed);
  return parsed;
}

/**
 * Parsed midnight stamps, shared (results are read-only). A daily payload repeats each midnight
 * stamp once per metric block, so those are worth keeping; any other stamp (minute-level data,
 * hundreds of thousands of distinct instants) is parsed each time (under a microsecond): cached,
 * each would live just long enough to be promoted to V8's old generation, and the heap of the
 * 100 MB push grew by tens of MB of such garbage. Two generations: when `recent` is full it
 * becomes `older` and the previous `older` is dropped, so at most twice CACHE_GENERATION stamps
 * are held and the newest are always there.
 */
let recent = new Map<string, Readonly<HaeTime> | null>();
let older = new Map<string, Readonly<HaeTime> | null>();
const CACHE_GENERATION = 5000;

/** `YYYY-MM-DD` alone, or followed by a midnight `00:00:00` (space or `T`, any zone): the stamps worth caching. */
function isMidnight(input: string): boolean {
  return input.length === 10 || (input.length >= 19 && input.startsWith('00:00:00', 11));
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isRealDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]);
}

/**
 * parseWritten, and when that reads nothing or a year of the Thai Buddhist calendar, the stamp
 * with the phone's digits and calendar brought back to ASCII and Gregorian (phone-calendars.ts).
 */
function parseAny(input: string): HaeTime | null {
  const read = parseWritten(input);
  if (read !== null && !isBuddhistDate(read.date)) return read;
  const gregorian = gregorianStamp(input);
  return gregorian === undefined ? read : parseWritten(gregorian);
}

/**
 * parseUsual when the string has its length, else (or when it is spelled otherwise) parse, and
 * when that fails too, the string rewritten (timestamp-spellings.ts).
 */
function parseWritten(input: string): HaeTime | null {
  if (input.length === 25) {
    const usual = parseUsual(input);
    if (usual !== undefined) return usual;
  }
  if (input.length === 19 && COMPACT.test(input)) return parseUsual(expandCompact(input)) ?? null;
  const parsed = parse(input);
  if (parsed !== null) return parsed;
  const rewritten = rewriteTimestamp(input);
  return rewritten === undefined ? null : parse(rewritten);
}

/** A JSON number as seconds or milliseconds since 1970 (epochIso), or null. */
function parseEpoch(n: number): HaeTime | null {
  const iso = epochIso(n);
  return iso === undefined ? null : parse(iso);
}

/**
 * The compact spelling of the first Health app exports (iOS 8, 2014–2015), `YYYYMMDDHHMMSS±HHMM`
 * (`20150616071916-0700`): the same fields as the usual spelling without separators.
 */
const COMPACT = /^\d{14}[+-]\d{4}$/;

/** `20150616071916-0700` → `2015-06-16 07:19:16 -0700`. */
function expandCompact(s: string): string {
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)} ${s.slice(8, 10)}:${s.slice(10, 12)}:${s.slice(12, 14)} ${s.slice(14)}`;
}

/** The digit at `i` (0–9), or -1 for any other character. */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Two digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * The spelling Apple Health and HAE write, `YYYY-MM-DD HH:MM:SS ±HHMM`, read without the
 * pattern (most of a push's or an import's stamps are in it). Gives exactly what parse() gives
 * for such a string, including null for impossible values; undefined when the string is not
 * in that spelling (parse() reads it then).
 */
function parseUsual(s: string): HaeTime | null | undefined {
  if (
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 32
  ) {
    return undefined;
  }
  const sign = s.charCodeAt(20);
  if (sign !== 43 && sign !== 45) return undefined;
  const y1 = two(s, 0);
  const y2 = two(s, 2);
  const mo = two(s, 5);
  const d = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  const oh = two(s, 21);
  const om = two(s, 23);
  if ((y1 | y2 | mo | d | hour | minute | second | oh | om) < 0) return undefined;
  const y = y1 * 100 + y2;
  if (!isRealDate(y, mo, d)) return null;
  if (hour > 23 || minute > 59 || second > 59 || om > 59) return null;
  const total = oh * 60 + om;
  if (total > MAX_OFFSET_MINUTES) return null;
  const offsetMinutes = sign === 45 ? -total : total;
  const date = s.slice(0, 10);
  const time = s.slice(11, 19);
  const epochMs = Date.UTC(y, mo - 1, d, hour, minute, second, 0) - offsetMinutes * 60_000;
  return {
    date,
    time,
    offsetMinutes,
    epochMs,
    dateOnly: false,
    utc: false,
    // what spell() writes, cut from the string itself: whole seconds (no fraction), and the
    // offset's two-digit hours and minutes as written (`-0000` is spelled `+00:00`)
    canonical: `${date}T${time}${offsetMinutes < 0 ? '-' : '+'}${s.slice(21, 23)}:${s.slice(23, 25)}`,
  };
}

function parse(input: string): HaeTime | null {
  const trimmed = /^[\s\u00a0\u202f]|[\s\u00a0\u202f]$/.test(input)
    ? input.replace(/^[\s\u00a0\u202f]+|[\s\u00a0\u202f]+$/g, '')
    : input;
  const m = PATTERN.exec(trimmed) ?? PATTERN.exec(withEnglishDayHalf(trimmed));
  if (!m) return null;
  const [, ys, mos, ds, hs, mis, ss, frac, ampm, zone] = m;
  const date = `${ys}-${mos}-${ds}`;
  if (!isRealDate(Number(ys), Number(mos), Number(ds))) return null;
  let hour = hs === undefined ? 0 : Number(hs);
  const minute = mis === undefined ? 0 : Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) return null;
    const pm = ampm.toLowerCase() === 'p';
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = zone === undefined ? null : parseOffset(zone);
  if (offsetMinutes === undefined) return null;
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  const wall = Date.UTC(Number(ys), Number(mos) - 1, Number(ds), hour, minute, second, millis);
  const time = `${pad(hour)}:${pad(minute)}:${pad(second)}`;
  const epochMs = wall - (offsetMinutes ?? 0) * 60_000;
  return {
    date,
    time,
    offsetMinutes,
    epochMs,
    dateOnly: hs === undefined,
    canonical: spell(date, time, epochMs, offsetMinutes),
    utc: zone !== undefined && UTC_WORD.test(zone),
  };
}

/** `+1100` / `-04:00` / `+05` / `Z` / `GMT+2` → minutes east of UTC; undefined when out of range. */
function parseOffset(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z' || zone === 'UTC' || zone === 'GMT') return 0;
  const signed = zone[0] === 'U' || zone[0] === 'G' ? zone.slice(3) : zone;
  const digits = signed.slice(1);
  const colon = digits.indexOf(':');
  // hours are the digits before the colon, else all but the last two (`530` is 5:30), else all
  const cut = colon >= 0 ? colon : digits.length > 2 ? digits.length - 2 : digits.length;
  const hours = Number(digits.slice(0, cut));
  const minutes = Number(digits.slice(colon >= 0 ? cut + 1 : cut) || '0');
  if (minutes > 59) return undefined;
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return undefined;
  return signed[0] === '-' ? -total : total;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * One spelling per instant-as-written, `YYYY-MM-DDTHH:MM:SS±HH:MM` (no zone when none was
 * written), so `7:57:00 am +1000` and `07:57:00 +1000` give the same text (used in dedup keys).
 * Spelled once when the string is parsed (parsed times are shared, see `recent`), not per use.
 */
export function canonicalTimestamp(t: Readonly<HaeTime>): string {
  return t.canonical;
}

function spell(date: string, time: string, epochMs: number, offsetMinutes: number | null): string {
  const base = `${date}T${time}`;
  const ms = ((epochMs % 1000) + 1000) % 1000;
  const withMs = ms ? `${base}.${String(ms).padStart(3, '0')}` : base;
  if (offsetMinutes === null) return withMs;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${withMs}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Local wall-clock `HH:MM` of a parsed timestamp (bedTime, startTime ...). */
export function localHourMinute(t: Readonly<HaeTime>): string {
  return t.time.slice(0, 5);
}
