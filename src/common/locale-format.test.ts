import { describe, expect, it } from 'vitest';
import {
  firstDayOfWeek,
  formatCompact,
  formatDay,
  formatNumber,
  formatSigned,
  SIGNED_MINUS,
  weekdayNames,
} from './locale-format.js';

describe('numbers in the person’s locale', () => {
  it('German writes a decimal comma, English a point; the float tail is gone in both', () => {
    expect(formatNumber(72.4, { locale: 'de-DE' })).toBe('72,4');
    expect(formatNumber(72.4, { locale: 'en-GB' })).toBe('72.4');
    expect(formatNumber(0.1 + 0.2, { locale: 'de-DE' })).toBe('0,3');
    expect(formatNumber(85.5 - 85.3, { decimals: 1, locale: 'de-DE' })).toBe('0,2');
  });

  it('round(N) rounds halves away from zero on the decimal digits, then localises', () => {
    expect(formatNumber(1.005, { decimals: 2, locale: 'en-GB' })).toBe('1.01');
    expect(formatNumber(72, { decimals: 1, locale: 'de-DE' })).toBe('72,0');
    expect(formatNumber(-0.04, { decimals: 1, locale: 'en-GB' })).toBe('0.0');
  });

  it('groups digits as the locale does', () => {
    expect(formatNumber(8432, { locale: 'en-GB' })).toBe('8,432');
    expect(formatNumber(8432, { locale: 'de-DE' })).toBe('8.432');
    expect(formatNumber(12345, { locale: 'en-GB' })).toBe('12,345');
    expect(formatNumber(12345, { locale: 'de-DE' })).toBe('12.345');
  });

  it('non-finite numbers are empty, never NaN', () => {
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatSigned(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('signed differences: plus, typographic minus, no sign on zero', () => {
    expect(formatSigned(0.2, { decimals: 1, locale: 'de-DE' })).toBe('+0,2');
    expect(formatSigned(-1.5, { decimals: 1, locale: 'en-GB' })).toBe(`${SIGNED_MINUS}1.5`);
    expect(formatSigned(0, { decimals: 1, locale: 'en-GB' })).toBe('0.0');
    expect(formatSigned(-0.01, { decimals: 1, locale: 'en-GB' })).toBe('0.0');
  });
});

describe('calendar days in the person’s locale', () => {
  it('writes the day as the locale does, never moved by a time zone', () => {
    expect(formatDay('2026-04-20', 'day-month', 'en-GB')).toBe('20 April');
    expect(formatDay('2026-04-20', 'day-month', 'de-DE')).toBe('20. April');
    expect(formatDay('2026-04-20T23:30:00-07:00', 'short', 'en-GB')).toBe('20 Apr');
    expect(formatDay('2026-04-20', 'long', 'de-DE')).toBe('Montag, 20. April');
  });

  it('a value that is not a calendar day is shown as written', () => {
    expect(formatDay('2026-13-45', 'short', 'en-GB')).toBe('2026-13-45');
  });
});

describe('compact numbers', () => {
  it('writes huge magnitudes short in the locale, small ones as formatNumber', () => {
    expect(formatCompact(999_999_999, { locale: 'en-US' })).toBe('1B');
    expect(formatCompact(999_999_999, { locale: 'de-DE' })).toBe('1\u00a0Mrd.');
    expect(formatCompact(8432, { locale: 'en-GB' })).toBe('8,432');
    expect(formatCompact(50_000, { locale: 'en-US', from: 1 })).toBe('50K');
    expect(formatCompact(1e308, { locale: 'en-GB' })).toBe('1E308');
    expect(formatCompact(Number.NaN)).toBe('');
  });
});

describe('the first day of the week in the person’s locale', () => {
  it('is Monday in Germany and Britain, Sunday in the United States and Japan, Saturday in Egypt', () => {
    expect(firstDayOfWeek('de-DE')).toBe(1);
    expect(firstDayOfWeek('en-GB')).toBe(1);
    expect(firstDayOfWeek('en-US')).toBe(0);
    expect(firstDayOfWeek('ja-JP')).toBe(0);
    expect(firstDayOfWeek('pt-BR')).toBe(0);
    expect(firstDayOfWeek('ar-EG')).toBe(6);
  });

  it('honours a first-day extension, and falls back to Monday for a tag Intl refuses', () => {
    expect(firstDayOfWeek('en-US-u-fw-mon')).toBe(1);
    expect(firstDayOfWeek('not a tag')).toBe(1);
  });

  it('names the weekdays from that day on, in the language', () => {
    expect(weekdayNames(1, 'weekday-short', 'en-GB')).toEqual([
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
    ]);
    expect(weekdayNames(0, 'weekday-short', 'en-US')).toEqual([
      'Sun',
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
    ]);
    expect(weekdayNames(1, 'weekday-short', 'de-DE')).toEqual(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']);
    expect(weekdayNames(6, 'weekday-narrow', 'en-US')).toEqual(['S', 'S', 'M', 'T', 'W', 'T', 'F']);
  });
});
