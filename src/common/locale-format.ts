/**
 * Numbers and calendar days as text in a person's locale (Intl): one place that decides how a
 * value looks, so a card, a chart, its axis and its legend all write 72,4 in German and 72.4 in
 * English, and the same day the same way. Shared by the browser (web/lib/format.ts binds it to
 * the person's locale) and the server: no Node imports.
 *
 * Numbers are first cleaned of float artefacts (numbers.ts), so 0.1 + 0.2 shows as 0.3 in every
 * locale. Digits are grouped as the locale groups them (8,432 steps in English, 8.432 in German,
 * as the rest of the app writes counts). Days are calendar days
 * (`YYYY-MM-DD`), formatted at their UTC noon in UTC, so no time zone moves them.
 */

import { isIsoDate } from './dates.js';
import { cleanNumber, decimalPlaces, formatFixed, MAX_DECIMALS } from './numbers.js';

/** A BCP 47 language tag (`de-DE`), or undefined for the runtime's own locale. */
export type LocaleTag = string | undefined;

/** From this magnitude on, `formatCompact` writes "123K", "1B" (German: "123.000", "1 Mrd."). */
export const COMPACT_FROM = 100_000;

/** Options of `formatCompact`: `from` moves the magnitude where compact notation starts. */
export interface CompactTextOptions extends NumberTextOptions {
  from?: number;
}

const compactFormats = new Map<string, Intl.NumberFormat>();

/**
 * `x` short enough for an axis or a card whatever its size: below COMPACT_FROM as `formatNumber`
 * (rounded to `decimals` when given), from there in the locale's compact notation with at most
 * three significant digits: 999 999 999 → "1B" (en-US), "1 Mrd." (de). Compact notation stops
 * at trillions, so from 1e15 on the scientific "1E308" is written instead of hundreds of digits.
 * Non-finite gives ''.
 */
export function formatCompact(x: number, opts: CompactTextOptions = {}): string {
  if (!Number.isFinite(x)) return '';
  const abs = Math.abs(x);
  if (abs < (opts.from ?? COMPACT_FROM)) return formatNumber(x, opts);
  const notation = abs < 1e15 ? 'compact' : 'scientific';
  const key = `${opts.locale ?? ''}|${notation}`;
  let f = compactFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(opts.locale, { notation, maximumSignificantDigits: 3 });
    compactFormats.set(key, f);
  }
  return f.format(x);
}

/** The minus sign of signed differences (U+2212, the typographic minus). */
export const SIGNED_MINUS = '\u2212';

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: LocaleTag, decimalsMin: number, decimalsMax: number): Intl.NumberFormat {
  const key = `${locale ?? ''}|${decimalsMin}|${decimalsMax}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: decimalsMin,
      maximumFractionDigits: decimalsMax,
    });
    if (numberFormats.size > 200) numberFormats.clear();
    numberFormats.set(key, f);
  }
  return f;
}

/** Options of `formatNumber`. */
export interface NumberTextOptions {
  /** Exactly this many decimals (halves away from zero, as `formatFixed`); default: as many as the number has. */
  decimals?: number;
  locale?: LocaleTag;
}

/**
 * `x` as a person reads it in `locale`: 72.4 → "72,4" (de-DE), 8432 → "8,432" (en-GB). With
 * `decimals`, exactly that many (1.005 with 2 → "1.01", never "1.00"); without, the number's
 * own decimals after cleaning (0.1 + 0.2 → "0.3"). No "-0". Non-finite gives ''.
 */
export function formatNumber(x: number, opts: NumberTextOptions = {}): string {
  if (!Number.isFinite(x)) return '';
  if (opts.decimals !== undefined) {
    const d = Math.min(
      MAX_DECIMALS,
      Math.max(0, Math.trunc(Number.isFinite(opts.decimals) ? opts.decimals : 0)),
    );
    // round on the decimal digits first (formatFixed), then let Intl write the rounded number
    const rounded = Number(formatFixed(x, d));
    return numberFormat(opts.locale, d, d).format(rounded === 0 ? 0 : rounded);
  }
  const clean = cleanNumber(x);
  const d = decimalPlaces(clean);
  return numberFormat(opts.locale, 0, d).format(clean === 0 ? 0 : clean);
}

/**
 * A signed difference as printed next to a trend arrow: "+0,2", "−1.5" (U+2212), "0" (a
 * difference that shows as zero has no sign). Non-finite gives ''.
 */
export function formatSigned(delta: number, opts: NumberTextOptions = {}): string {
  if (!Number.isFinite(delta)) return '';
  const abs = formatNumber(Math.abs(delta), opts);
  if (!/[1-9]/.test(abs)) return abs;
  return `${delta > 0 ? '+' : SIGNED_MINUS}${abs}`;
}

/** The ways a calendar day is written. */
export type DayStyle =
  /** "Monday 20 April" */
  | 'long'
  /** "Monday 20 April 2025" */
  | 'long-year'
  /** "20 April" */
  | 'day-month'
  /** "20 April 2025" */
  | 'day-month-year'
  /** "20 Apr" */
  | 'short'
  /** "20 Apr 2025" */
  | 'short-year'
  /** "Mon 20 Apr" */
  | 'short-weekday'
  /** "Apr 25" (a chart axis over many months) */
  | 'month-year-short'
  /** "April 2026" */
  | 'month-year'
  /** "Apr" */
  | 'month-short'
  /** "Monday" */
  | 'weekday'
  /** "Mon" */
  | 'weekday-short'
  /** "M" */
  | 'weekday-narrow';

const DAY_OPTIONS: Record<DayStyle, Intl.DateTimeFormatOptions> = {
  long: { weekday: 'long', day: 'numeric', month: 'long' },
  'long-year': { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  'day-month': { day: 'numeric', month: 'long' },
  'day-month-year': { day: 'numeric', month: 'long', year: 'numeric' },
  short: { day: 'numeric', month: 'short' },
  'short-year': { day: 'numeric', month: 'short', year: 'numeric' },
  'short-weekday': { weekday: 'short', day: 'numeric', month: 'short' },
  'month-year-short': { month: 'short', year: '2-digit' },
  'month-year': { month: 'long', year: 'numeric' },
  'month-short': { month: 'short' },
  weekday: { weekday: 'long' },
  'weekday-short': { weekday: 'short' },
  'weekday-narrow': { weekday: 'narrow' },
};

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(style: DayStyle, locale: LocaleTag): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${style}`;
  let f = dayFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...DAY_OPTIONS[style], timeZone: 'UTC' });
    dayFormats.set(key, f);
  }
  return f;
}

/**
 * A calendar day `YYYY-MM-DD` (or a timestamp starting with one) written in `style` for
 * `locale`: `formatDay('2026-04-20', 'day-month', 'de-DE')` → "20. April". A value that is not a
 * real calendar day is returned as written (a row's "2026-13-45" is shown, never thrown on).
 */
export function formatDay(date: string, style: DayStyle, locale?: LocaleTag): string {
  const day = typeof date === 'string' ? date.slice(0, 10) : '';
  if (!isIsoDate(day)) return String(date);
  return dayFormat(style, locale).format(new Date(`${day}T12:00:00Z`));
}

/** The same as `formatDay` for a UTC instant in seconds (a chart axis tick at a UTC midnight). */
export function formatDaySeconds(seconds: number, style: DayStyle, locale?: LocaleTag): string {
  return dayFormat(style, locale).format(new Date(seconds * 1000));
}

/** Intl.Locale's week data as runtimes expose it (a `weekInfo` getter, or `getWeekInfo()`). */
interface WeekInfoLocale {
  weekInfo?: { firstDay?: number };
  getWeekInfo?: () => { firstDay?: number };
}

/**
 * The day a week starts on in `locale` (0 Sunday … 6 Saturday), as a calendar there lays out its
 * rows: Monday in most of Europe, Sunday in the United States, Canada, Japan or Brazil, Saturday
 * in Egypt; a `-u-fw-` extension (`en-US-u-fw-mon`) is honoured. From Intl.Locale's week data;
 * Monday (ISO 8601) where the runtime has none or the tag is not one.
 */
export function firstDayOfWeek(locale: LocaleTag): number {
  try {
    const tag = locale ?? new Intl.DateTimeFormat().resolvedOptions().locale;
    const loc = new Intl.Locale(tag) as Intl.Locale & WeekInfoLocale;
    const first = (loc.getWeekInfo?.() ?? loc.weekInfo)?.firstDay;
    return typeof first === 'number' && first >= 1 && first <= 7 ? first % 7 : 1;
  } catch {
    return 1;
  }
}

/** The seven weekdays from `first` (0 Sunday … 6 Saturday) as `style` names them in `locale`. */
export function weekdayNames(
  first: number,
  style: 'weekday-short' | 'weekday-narrow',
  locale: LocaleTag,
): string[] {
  // 2026-04-05 is a Sunday: the (first + i)th day after it is weekday first + i
  return Array.from({ length: 7 }, (_, i) =>
    formatDay(`2026-04-${String(5 + first + i).padStart(2, '0')}`, style, locale),
  );
}
