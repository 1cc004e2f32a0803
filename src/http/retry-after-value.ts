/**
 * Reading a `Retry-After` value another service sent (a push service, the chat gateway):
 * delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Each form is matched by its own grammar;
 * nothing falls through to `Date.parse`, which reads a bare number as a year ("1.5" is
 * 5 January 2001, "-1" the year -1): a decimal or a junk value used to become a wait of 0, and a
 * busy service was asked again at once.
 *
 * - Seconds: digits, with a decimal fraction as some services send it ("1.5" is 1500 ms).
 * - A date in any of the three forms RFC 9110 §5.6.7 asks a recipient to read: IMF-fixdate
 *   (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
 *   (`Sun Nov  6 08:49:37 1994`), always GMT; an impossible day (31 February) is junk. A date
 *   already past is a wait of 0.
 * - Anything else (a sign, an exponent, `NaN`, words, an empty value) is unreadable: the caller
 *   keeps to its own backoff.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const SECONDS = /^\d+(?:\.\d+)?$/;
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i');
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i');
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, 'i');

interface DateParts {
  year: number;
  month: string;
  day: string;
  hh: string;
  mm: string;
  ss: string;
}

/** Epoch ms of a GMT calendar time, or undefined when no such time exists (31 Feb, 25:00). */
function instant(p: DateParts): number | undefined {
  const month = MONTHS.indexOf(p.month.toLowerCase());
  const [day, hh, mm, ss] = [p.day, p.hh, p.mm, p.ss].map((x) => Number(x.trim()));
  if (hh > 23 || mm > 59 || ss > 60) return undefined; // 60: a leap second, read as the next one
  const at = Date.UTC(p.year, month, day, hh, mm, Math.min(ss, 59));
  const d = new Date(at);
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month) return undefined;
  return ss === 60 ? at + 1000 : at;
}

/** RFC 850's two-digit year: the latest year ending in those digits not over 50 years ahead. */
function fullYear(yy: number, nowMs: number): number {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + yy;
  return year > thisYear + 50 ? year - 100 : year;
}

/** Epoch ms of an HTTP-date in any of its three forms, or undefined. */
function httpDate(v: string, nowMs: number): number | undefined {
  let m = IMF_FIXDATE.exec(v);
  if (m) return instant({ day: m[1], month: m[2], year: Number(m[3]), hh: m[4], mm: m[5], ss: m[6] });
  m = RFC_850.exec(v);
  if (m) {
    const year = fullYear(Number(m[3]), nowMs);
    return instant({ day: m[1], month: m[2], year, hh: m[4], mm: m[5], ss: m[6] });
  }
  m = ASCTIME.exec(v);
  if (m) return instant({ month: m[1], day: m[2], hh: m[3], mm: m[4], ss: m[5], year: Number(m[6]) });
  return undefined;
}

/**
 * The wait a `Retry-After` value asks for, in ms (never negative), or undefined when it is absent
 * or unreadable. `nowMs` is the time the answer came (for a date).
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (SECONDS.test(v)) {
    // digits past what a number holds ask for longer than anyone waits
    return Math.min(Math.round(Number(v) * 1000), Number.MAX_SAFE_INTEGER);
  }
  const at = httpDate(v, nowMs);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}
