/**
 * Calendar dates as the user lives them: a date-only string `YYYY-MM-DD` is a
 * calendar date, never an instant; "today" is the calendar date in a time zone (the user's, once
 * reported; until then the server's TZ). Day arithmetic is done on UTC midnights, so 23- and
 * 25-hour days at daylight-saving changes still count as one day.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Today's date `YYYY-MM-DD` in `timeZone` (IANA name; default: the process's zone). The year is
 * the UTC year moved across New Year when the zone is already or still in another one: Intl
 * writes years below 1000 without their leading zeros and those before year 1 by their era.
 */
export function todayIn(timeZone?: string, now = new Date()): string {
  const parts = dayFormatter(timeZone).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const month = get('month');
  const utcMonth = now.getUTCMonth();
  const year =
    now.getUTCFullYear() +
    (month === '12' && utcMonth === 0 ? -1 : month === '01' && utcMonth === 11 ? 1 : 0);
  const y = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  return `${y}-${month}-${get('day')}`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The first and last day `YYYY-MM-DD` can write. Day text is compared as text everywhere (SQL
 * ranges, `day < from`), which holds only for four-digit years: a day computed past these
 * (`+010000-01-01` from Date) sorts before every real day and made a range read nothing.
 */
export const FIRST_WRITABLE_DAY = '0000-01-01';
/** See FIRST_WRITABLE_DAY. */
export const LAST_WRITABLE_DAY = '9999-12-31';

/**
 * True for a real calendar date `YYYY-MM-DD` (2026-02-30 is false; proleptic Gregorian leap
 * years, as `Date` counts them). Arithmetic, not a `Date` round trip: it runs for every row a
 * write or a check reads.
 */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= MONTH_DAYS[m - 1] + (leap ? 1 : 0);
}

/**
 * A date, or a date and time (`2026-04-20T07:12`, `2026-04-20 07:12:05.250+02:00`, `…Z`,
 * `…+0200`): the date, then optionally a time with seconds, a fraction and a UTC offset.
 */
const DATE_TIME_RE =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2}))?)?$/;

/** A date written year first in another way: `2026-4-5`, `2026/04/05`, `2026.4.5`, maybe with a time after. */
const LOOSE_DATE_RE = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?=$|[T ])/;
/** A date written day first with dots: `6.4.2026`, `06.04.2026`, maybe with a time after. */
const DOTTED_DAY_FIRST_RE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?=$|[T ])/;

/**
 * `s` with a date written by hand another way spelt `YYYY-MM-DD`, the rest kept; anything else
 * unchanged. Read: year first without zero padding or with `/` or `.` (`2026-4-5`, `2026/04/05`,
 * as people and spreadsheets write them), and day first with dots (`5.4.2026`: every region that
 * writes dots puts the day first). Day or month first with `/` or `-` (`05/04/2026`) is not read:
 * it means two different days.
 */
export function isoDateSpelling(s: string): string {
  const m = LOOSE_DATE_RE.exec(s);
  if (m) {
    if (m[2] === '-' && m[3].length === 2 && m[4].length === 2) return s;
    return `${m[1]}-${m[3].padStart(2, '0')}-${m[4].padStart(2, '0')}${s.slice(m[0].length)}`;
  }
  const dm = DOTTED_DAY_FIRST_RE.exec(s);
  if (!dm) return s;
  return `${dm[3]}-${dm[2].padStart(2, '0')}-${dm[1].padStart(2, '0')}${s.slice(dm[0].length)}`;
}

/**
 * True when `a` and `b` are texts naming the same date (and time, when they carry one) written
 * two ways (`2026/04/06` and `2026-04-06`; see isoDateSpelling); false for equal texts and for
 * anything that is not a date.
 */
export function sameDateSpelled(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a === b) return false;
  const ca = isoDateSpelling(a);
  return ca === isoDateSpelling(b) && isIsoDate(ca.slice(0, 10));
}

/** A date or date-time read by DATE_TIME_RE, each part checked (see dateTimeParts). */
export interface DateTimeParts {
  /** The day as written, `YYYY-MM-DD`, on the calendar. */
  day: string;
  /** Absent for a date without a time. */
  time?: { hour: number; minute: number; second: number; millisecond: number };
  /** Minutes east of UTC for a time written with `Z` or an offset; absent for a wall-clock time. */
  offsetMinutes?: number;
}

/**
 * A date, or a date and a time (`2026-04-20T07:12`, `2026-04-20 07:12:05.250+02:00`, `…Z`,
 * `…+0200`), read into its parts, or null unless every part is real: a day of the calendar, hours
 * 00–23, minutes and seconds 00–59, an offset up to ±14:00, nothing before or after. `Date.parse`
 * is not the judge: it reads 2026-02-30 as March 2nd and `+010000-01-01` as a day.
 */
export function dateTimeParts(s: unknown): DateTimeParts | null {
  if (typeof s !== 'string') return null;
  const m = DATE_TIME_RE.exec(s);
  if (!m || !isIsoDate(m[1])) return null;
  const [, day, h, mi, sec, frac, zone, sign, oh, om] = m;
  if (h === undefined) return { day };
  if (Number(h) > 23 || Number(mi) > 59) return null;
  if (sec !== undefined && Number(sec) > 59) return null;
  if (oh !== undefined && (Number(oh) * 60 + Number(om) > 14 * 60 || Number(om) > 59)) return null;
  const time = {
    hour: Number(h),
    minute: Number(mi),
    second: Number(sec ?? 0),
    millisecond: Math.floor(Number(`0.${frac ?? 0}`) * 1000),
  };
  if (zone === undefined) return { day, time };
  const offsetMinutes = oh === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return { day, time, offsetMinutes };
}

/** Time of day of DateTimeParts. */
export type TimeOfDayParts = NonNullable<DateTimeParts['time']>;

/**
 * The instant, in ms since 1970, of `day` at `time` written with an offset of `offsetMinutes`
 * east of UTC (any four-digit year as written).
 */
export function instantMs(day: string, time: TimeOfDayParts, offsetMinutes: number): number {
  const date = [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))] as const;
  return (
    utcMs(...date, time.hour, time.minute) + time.second * 1000 + time.millisecond - offsetMinutes * 60_000
  );
}

/**
 * The calendar day `YYYY-MM-DD` a date field's value is filed under, or null when it names none
 * (see dateTimeParts). A date, or a date and time without offset (a wall clock time), is filed
 * under the day written. A time with `Z` or an offset is an instant (a machine wrote it, often in
 * UTC): it is filed under its date in `timeZone`, the person's zone (default: the process's zone,
 * which in the browser is the person's), so a Los Angeles evening sent as `2026-04-21T03:30Z` is
 * 20 April. Anything else, such as trailing text ("2026-04-20 ", "2026-04-20abc") or a time that
 * no clock shows ("2026-04-20T25:00"), is null: a reader that cuts the first ten characters
 * would otherwise file it under a day while the stored value matches no day. A date written year
 * first another way (`2026-4-20`, `2026/04/20`) is read as that date (`isoDateSpelling`).
 */
export function dayOfDateTime(s: unknown, timeZone?: string): string | null {
  const p = dateTimeParts(typeof s === 'string' ? isoDateSpelling(s) : s);
  if (!p) return null;
  if (!p.time || p.offsetMinutes === undefined) return p.day;
  return instantDay(instantMs(p.day, p.time, p.offsetMinutes), timeZone);
}

/**
 * The minute of its day (0–1439) a date field's value was written at, as the clock of the day it
 * is filed under shows it (dayOfDateTime): a wall-clock time as written, and an instant (`Z` or an
 * offset) in `timeZone` (default: the process's zone, in the browser the person's), so
 * `2026-04-21T03:30Z` is 20:30 in Los Angeles, on 20 April. Null for a date without a time, or a
 * value that names no day.
 */
export function minuteOfDateTime(s: unknown, timeZone?: string): number | null {
  const p = dateTimeParts(typeof s === 'string' ? isoDateSpelling(s) : s);
  if (!p?.time) return null;
  if (p.offsetMinutes === undefined) return p.time.hour * 60 + p.time.minute;
  const parts = minuteFormatter(timeZone).formatToParts(new Date(instantMs(p.day, p.time, p.offsetMinutes)));
  const get = (t: string) => Number(parts.find((x) => x.type === t)?.value);
  const minute = (get('hour') % 24) * 60 + get('minute');
  return Number.isFinite(minute) ? minute : null;
}

const minuteFormatters = new Map<string, Intl.DateTimeFormat>();

/** An hour-and-minute formatter of `timeZone` (24-hour clock), made once per zone. */
function minuteFormatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = minuteFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    minuteFormatters.set(key, f);
  }
  return f;
}

/**
 * `Date.UTC` without its two-digit-year rule: `Date.UTC(50, …)` is 1950, while the year 0050
 * written in a date means 0050. `month` counts from 0, as Date.UTC's does.
 */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(hour, minute, 0, 0);
  return d.getTime();
}

/** Days of instants already worked out, by zone and instant (formatting one costs a few µs). */
const instantDays = new Map<string, string>();

/**
 * The calendar date of instant `ms` in `timeZone` (default: the process's zone), or null when
 * that date has no four-digit year (an instant just past 9999-12-31 or before 0000-01-01 in the
 * zone: Intl writes `10000-01-01` or an era's year).
 */
function instantDay(ms: number, timeZone: string | undefined): string | null {
  const key = `${timeZone ?? ''}|${ms}`;
  let d = instantDays.get(key);
  if (d === undefined) {
    const day = todayIn(timeZone, new Date(ms));
    d = isIsoDate(day) ? day : '';
    if (instantDays.size >= 10_000) instantDays.clear();
    instantDays.set(key, d);
  }
  return d === '' ? null : d;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`; later `to` is positive). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * `YYYY-MM-DD` shifted by `days` calendar days, kept within FIRST_WRITABLE_DAY and
 * LAST_WRITABLE_DAY: a range bound worked out from the first or last day (`to` + 2 days for
 * instants written in another zone) stays a day that compares as text.
 */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const day = d.toISOString();
  if (day.startsWith('+')) return LAST_WRITABLE_DAY;
  if (day.startsWith('-')) return FIRST_WRITABLE_DAY;
  return day.slice(0, 10);
}

/** English weekday name of a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): string {
  return ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][
    new Date(`${date}T00:00:00Z`).getUTCDay()
  ];
}
