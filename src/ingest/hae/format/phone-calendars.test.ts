/**
 * Stamps and numbers as a phone set to another calendar, digit set or 12-hour clock writes them:
 * read when one reading is possible (the Thai Buddhist year, any script's digits, a language's
 * morning and afternoon words), refused with the reason when not (a Japanese era year, a Persian
 * or Islamic year, a day-half word not known).
 */
import { describe, expect, it } from 'vitest';
import { readNumber } from './numbers.js';
import { dateProblem } from './plausible.js';
import { timestampProblem } from './timestamp-spellings.js';
import { canonicalTimestamp, parseHaeTimestamp } from './timestamps.js';

const canonical = (s: string) => {
  const t = parseHaeTimestamp(s);
  return t ? canonicalTimestamp(t) : null;
};

describe('stamps from a phone set to another calendar or digit set', () => {
  it.each([
    // Thai Buddhist year: the Gregorian year plus 543
    ['2569-04-06 08:00:00 +0700', '2026-04-06 08:00:00 +0700'],
    ['2569-04-06T08:00:00+07:00', '2026-04-06 08:00:00 +0700'],
    ['13/04/2569 08:00:00 +0700', '2026-04-13 08:00:00 +0700'],
    // 29 February of a Buddhist year whose Gregorian year is a leap year
    ['2567-02-29 08:00:00 +0700', '2024-02-29 08:00:00 +0700'],
    // Arabic-Indic, Extended Arabic-Indic (Persian), Devanagari, Bengali, Thai, full-width digits
    ['٢٠٢٦-٠٤-٠٧ ٠٨:٠٠:٠٠ +٠٣٠٠', '2026-04-07 08:00:00 +0300'],
    ['۲۰۲۶-۰۴-۰۸ ۰۸:۰۰:۰۰ +۰۳۳۰', '2026-04-08 08:00:00 +0330'],
    ['२०२६-०४-०९ ०८:००:०० +०५३०', '2026-04-09 08:00:00 +0530'],
    ['২০২৬-০৪-০৯ ০৮:০০:০০ +০৬০০', '2026-04-09 08:00:00 +0600'],
    ['๒๕๖๙-๐๔-๐๖ ๐๘:๐๐:๐๐ +๐๗๐๐', '2026-04-06 08:00:00 +0700'],
    ['２０２６-０４-０９ ０８:００:００ +０９００', '2026-04-09 08:00:00 +0900'],
    // right-to-left marks around Arabic text, the minus sign U+2212 before an offset
    ['\u200f٢٠٢٦-٠٤-٠٧ ٠٨:٠٠:٠٠ \u200f+٠٣٠٠', '2026-04-07 08:00:00 +0300'],
    ['2026-04-09 08:00:00 \u22120500', '2026-04-09 08:00:00 -0500'],
  ])('%j is the instant %j', (phone, gregorian) => {
    expect(canonical(phone)).not.toBeNull();
    expect(canonical(phone)).toBe(canonical(gregorian));
    expect(parseHaeTimestamp(phone)?.date).toBe(gregorian.slice(0, 10));
  });

  it.each([
    ['2026-04-10 8:00:00 ص +0300', '08:00:00'],
    ['٢٠٢٦-٠٤-١٠ ٨:٠٠:٠٠ م +٠٣٠٠', '20:00:00'],
    ['۲۰۲۶-۰۴-۱۰ ۸:۰۰:۰۰ ب.ظ. +۰۳۳۰', '20:00:00'],
    ['2026-04-10 8:00:00 ق.ظ. +0330', '08:00:00'],
    ['2026-04-10 8:00:00 μ.μ. +0300', '20:00:00'],
    ['2026-04-10 8:00:00 หลังเที่ยง +0700', '20:00:00'],
    ['2026-04-10 8:00:00 अपराह्न +0530', '20:00:00'],
    ['2026-04-10 ÖS 8:00:00 +0300', '20:00:00'],
    ['2026-04-10 du. 8:00:00 +0100', '20:00:00'],
    ['2026-04-10 8:00:00 em +0100', '20:00:00'],
    ['2026-04-10 8:00:00 CH +0700', '20:00:00'],
    ['2026-04-10 12:30:00 אחה״צ +0300', '12:30:00'],
    ['2026-04-10 12:30:00 a.m. +0300', '00:30:00'],
  ])('%j is read at %s', (stamp, time) => {
    expect(parseHaeTimestamp(stamp)).toMatchObject({ date: '2026-04-10', time });
  });

  it('a year not far enough ahead to be a Buddhist one stays as written (and is refused later)', () => {
    expect(parseHaeTimestamp('2300-01-01 00:00:00 +0000')?.date).toBe('2300-01-01');
    expect(dateProblem('2300-01-01')).toBe('date after 2099-12-31');
  });

  it('a year of a Japanese era or of the Persian or Islamic calendar is refused, saying why', () => {
    expect(parseHaeTimestamp('0008-04-11 08:00:00 +0900')?.date).toBe('0008-04-11');
    expect(dateProblem('0008-04-11')).toMatch(/^date before 1900-01-01: a year below 100 .*Japanese era/);
    for (const d of ['1405-01-22', '1447-10-20']) {
      expect(dateProblem(d)).toMatch(
        /^date before 1900-01-01: a year of the Persian or the Islamic calendar/,
      );
    }
    // a year before 1900 that no such calendar writes now is refused as before
    expect(dateProblem('1899-12-30')).toBe('date before 1900-01-01');
  });

  it('a 12-hour time with a morning or afternoon word not known is refused, saying why', () => {
    const stamp = '2026-04-12 8:00:00 xyz +0300';
    expect(parseHaeTimestamp(stamp)).toBeNull();
    expect(timestampProblem(stamp)).toMatch(/morning or afternoon word Klebb does not know/);
    expect(timestampProblem('٢٠٢٦-٠٤-١٢ ٨:٠٠:٠٠ قبل +٠٣٠٠')).toMatch(/morning or afternoon word/);
  });
});

describe('numbers in a phone’s own digits', () => {
  it.each([
    ['٧٢٫٥', 72.5],
    ['۷۲٫۵', 72.5],
    ['١٬٢٣٤', 1234],
    ['١٬٢٣٤٫٥', 1234.5],
    ['١٢٫٣٤٥', 12.345],
    ['७२.५', 72.5],
    ['\u22120,3', -0.3],
    ['\u200f٧٢٫٥', 72.5],
  ])('%j is %d', (text, value) => {
    expect(readNumber(text)).toEqual({ value });
  });

  it('a comma between Arabic-Indic digits is still a decimal or a thousands mark that cannot be told', () => {
    expect(readNumber('١٢,٣٤٥')).toEqual({ ambiguous: true });
  });
});
