/**
 * What a phone set to another calendar, another digit set or a 12-hour clock in its own language
 * writes in the stamps and numbers Health Auto Export sends (the app formats them with the
 * phone's settings), brought back to the spelling timestamps.ts and numbers.ts read, when that
 * can be done one way only:
 *
 * - digits of any script (Arabic-Indic `٢٠٢٦`, Extended Arabic-Indic `۲۰۲۶` of Persian and Urdu,
 *   Devanagari `२०२६`, Bengali, Thai, full-width, ...) are the digits they stand for; the marks
 *   that keep right-to-left text in order (U+200E, U+200F, U+061C, ...) are dropped, and the minus
 *   sign U+2212 some regions write is `-`;
 * - a year of the Thai Buddhist calendar (`2569-04-06`: the Gregorian year plus 543, with
 *   Gregorian months and days) is told by its size: a year more than 400 years ahead is no
 *   Gregorian year a sample can have, and every Buddhist year of the samples' years is;
 * - the morning and afternoon words of a 12-hour clock in the phone's language (`ص`/`م`, `午前`,
 *   `π.μ.`, `ก่อนเที่ยง`, ...) are `am` and `pm`.
 *
 * Other calendars cannot be read one way and are refused, with the reason (otherCalendarYear):
 * the Japanese calendar writes the year of the current era (Reiwa 8 is 2026) but an era year
 * below 100 may be of Reiwa, Heisei or Showa; the Persian and the Islamic calendars write years
 * around 1400 that cannot be told apart (1405 is a Persian year of 2026 and an Islamic year of
 * 1984), and the Islamic calendar's months are counted several ways, a day or two apart.
 */

import { lookupTable } from '../../../common/lookup-table.js';

/** Any decimal digit (Unicode general category Nd). */
const DECIMAL_DIGIT = /\p{Nd}/u;
/** A character other than printable ASCII, spaces and the no-break spaces: text asciiDigits may change. */
const PHONE_CHARACTER = /[^\t\n\r -~\u00a0\u202f]/;
/** Marks that order right-to-left text: LRM, RLM, ALM, the embeddings and the isolates. */
const BIDI_MARK = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/** The value of each non-ASCII digit seen, by code point. */
const digitValues = new Map<number, number>();

/**
 * The value (0–9) of the decimal digit at code point `cp`. Unicode encodes every set of decimal
 * digits as ten code points from 0 to 9, sets side by side starting where the one before ends, so
 * the value is the distance from the first digit of the run `cp` sits in, modulo 10.
 */
function digitValue(cp: number): number {
  const known = digitValues.get(cp);
  if (known !== undefined) return known;
  let first = cp;
  while (first > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(first - 1))) first--;
  const value = (cp - first) % 10;
  digitValues.set(cp, value);
  return value;
}

/**
 * `text` with every decimal digit of another script written as ASCII `0`–`9`, the
 * right-to-left marks dropped, U+2212 as `-` and the Arabic comma `،` as `,`; `text` itself when
 * it holds none of these (most text: one test).
 */
export function asciiDigits(text: string): string {
  if (!PHONE_CHARACTER.test(text)) return text;
  let out = '';
  for (const ch of text.replace(BIDI_MARK, '')) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 128) out += ch;
    else if (cp === 0x2212) out += '-';
    else if (cp === 0x060c) out += ',';
    else if (DECIMAL_DIGIT.test(ch)) out += String(digitValue(cp));
    else out += ch;
  }
  return out;
}

/** Years the Thai Buddhist calendar is ahead of the Gregorian one. */
const BUDDHIST_OFFSET = 543;
/** A year written this many years past the current one is read as a Buddhist year (module comment). */
const BUDDHIST_MARGIN = 400;

/** The first year read as a Buddhist year: the current year plus BUDDHIST_MARGIN, plus one. */
function firstBuddhistYear(): number {
  return new Date().getUTCFullYear() + BUDDHIST_MARGIN + 1;
}

/** `YYYY` of the first Buddhist year as text, for comparing with a `YYYY-MM-DD` date (isBuddhistDate). */
const FIRST_BUDDHIST_TEXT = String(firstBuddhistYear());

/** True when the date `YYYY-MM-DD` has a year of the Thai Buddhist calendar (module comment). */
export function isBuddhistDate(date: string): boolean {
  // `date >= FIRST_BUDDHIST_TEXT` compares the first four characters as `date.slice(0, 4)` would,
  // without a new string per sample
  return date.length >= 5 && date.charCodeAt(4) === 45 && date >= FIRST_BUDDHIST_TEXT;
}

/** Four digits standing alone (not part of a longer number): the year of a written date. */
const LONE_YEAR = /(?<!\d)\d{4}(?!\d)/;

/**
 * `text` (ASCII digits) with a Buddhist year (isBuddhistDate) written as its Gregorian year:
 * `2569-04-06 08:00:00 +0700` → `2026-04-06 08:00:00 +0700`. An offset has four digits too, but
 * never above 1400.
 */
function gregorianYear(text: string): string {
  const m = LONE_YEAR.exec(text);
  if (!m || Number(m[0]) < firstBuddhistYear()) return text;
  const year = String(Number(m[0]) - BUDDHIST_OFFSET).padStart(4, '0');
  return `${text.slice(0, m.index)}${year}${text.slice(m.index + 4)}`;
}

/**
 * A stamp written with the phone's digits or its Buddhist year (module comment) in the spelling
 * timestamps.ts reads; undefined when it has neither, so a caller tries it only once.
 */
export function gregorianStamp(input: string): string | undefined {
  const out = gregorianYear(asciiDigits(input));
  return out === input ? undefined : out;
}

/**
 * Why a date in the year `year` (before 1900) was likely written by a phone set to another
 * calendar, for the warning that refuses it; undefined when nothing says so.
 */
export function otherCalendarYear(year: number): string | undefined {
  if (year < 100) {
    return 'a year below 100 is a date never set or a year of a Japanese era (Reiwa 8 is 2026, Heisei 8 was 1996), which cannot be told apart; set the phone to the Gregorian calendar';
  }
  // Persian years run 621 behind, Islamic ones about 579 behind today (and shorter)
  const now = new Date().getUTCFullYear();
  if (year >= 1300 && year <= now - 570) {
    return 'a year of the Persian or the Islamic calendar, which cannot be told apart; set the phone to the Gregorian calendar';
  }
  return undefined;
}

/**
 * A phone's morning and afternoon words as its language writes them with a 12-hour clock (a
 * time formatted with a fixed 24-hour pattern comes out so when the phone is set to a 12-hour
 * clock): `am`/`pm` and `a.m.` are read by timestamps.ts itself; these are the others, written
 * after the time or before it (Japanese, Chinese, Korean, Hungarian, Turkish).
 */
const DAY_HALF = lookupTable<'am' | 'pm'>({
  // Spanish, Catalan (the space may be U+00A0) are matched by DAY_HALF_WORD's `a. m.` form
  午前: 'am', // Japanese
  午後: 'pm',
  上午: 'am', // Chinese
  下午: 'pm',
  오전: 'am', // Korean
  오후: 'pm',
  'vorm.': 'am', // German
  'nachm.': 'pm',
  ص: 'am', // Arabic
  م: 'pm',
  'ق.ظ.': 'am', // Persian
  'ب.ظ.': 'pm',
  'לפנה״צ': 'am', // Hebrew
  'אחה״צ': 'pm',
  'π.μ.': 'am', // Greek
  'μ.μ.': 'pm',
  ก่อนเที่ยง: 'am', // Thai
  หลังเที่ยง: 'pm',
  पूर्वाह्न: 'am', // Hindi, Nepali
  अपराह्न: 'pm',
  'म.पू.': 'am', // Marathi
  'म.उ.': 'pm',
  SA: 'am', // Vietnamese
  CH: 'pm',
  ÖÖ: 'am', // Turkish
  ÖS: 'pm',
  PG: 'am', // Malay
  PTG: 'pm',
  fm: 'am', // Swedish
  em: 'pm',
  'ap.': 'am', // Finnish
  'ip.': 'pm',
  'dop.': 'am', // Czech
  'odp.': 'pm',
  'de.': 'am', // Hungarian
  'du.': 'pm',
  дп: 'am', // Ukrainian
  пп: 'pm',
  'vm.': 'am', // Afrikaans
  'nm.': 'pm',
  'f.h.': 'am', // Icelandic
  'e.h.': 'pm',
});

/** Separators before and after a day-half word: space, U+00A0, U+202F. */
const SP = '[\\s\\u00a0\\u202f]';
const escaped = (w: string) => w.replace(/[.]/g, '\\.');
/**
 * A day-half word standing alone: after the start, a space or a digit (`午後7:57`), before the
 * end, a space or a digit; the longest words first, so `ب.ظ.` is not read as a shorter one.
 */
const DAY_HALF_WORD = new RegExp(
  `(?<=^|${SP}|\\d)(${Object.keys(DAY_HALF)
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|')}|[aApP]\\.${SP}+[mM]\\.)(?=$|${SP}|\\d)`,
);
/** `<date> <day half><time>`: the day half written before the hour. */
const HALF_FIRST = new RegExp(`^(\\S+${SP}+)(am|pm)${SP}*(\\d{1,2}:\\S+)(.*)$`);

/**
 * `input` with a language's day-half word (DAY_HALF) written as `am`/`pm` after the time, as
 * timestamps.ts reads it; `input` itself when it has none.
 */
export function withEnglishDayHalf(input: string): string {
  const word = DAY_HALF_WORD.exec(input);
  if (!word) return input;
  const half = DAY_HALF[word[1]] ?? (word[1][0].toLowerCase() === 'a' ? 'am' : 'pm');
  const text = `${input.slice(0, word.index)}${half}${input.slice(word.index + word[1].length)}`;
  const first = HALF_FIRST.exec(text);
  return first ? `${first[1]}${first[3]} ${first[2]}${first[4]}` : text;
}

/** A word in a stamp: with a letter, not starting with a digit, a sign, a colon or a space. */
const WORD = '(?=[^\\s\\u00a0\\u202f]*\\p{L})[^\\d\\s\\u00a0\\u202f+:-][^\\s\\u00a0\\u202f]*';
const TIME = '\\d{1,2}:\\d{2}(?::\\d{2})?';
/** A date, then a time with a word before or after it, then an offset: a 12-hour time in some language. */
const UNKNOWN_DAY_HALF = new RegExp(
  `^\\d{4}-\\d{2}-\\d{2}${SP}+(?:${WORD}${SP}*${TIME}|${TIME}${SP}*${WORD})${SP}+[+-]\\d{2}:?\\d{2}$`,
  'u',
);

/**
 * Why an unreadable stamp was not read when it is a 12-hour time whose morning or afternoon
 * word Klebb does not know (a language not in DAY_HALF); undefined otherwise.
 */
export function dayHalfProblem(text: string): string | undefined {
  return UNKNOWN_DAY_HALF.test(asciiDigits(text))
    ? 'a 12-hour time with a morning or afternoon word Klebb does not know; set the phone to a 24-hour clock'
    : undefined;
}

/**
 * Numeric text as a phone writes it in its own digits (`٧٢٫٥`): the digits as ASCII
 * (asciiDigits), the Arabic decimal separator `٫` as `.` and its thousands separator `٬` as `'`
 * (a grouping mark numbers.ts reads, so `١٬٢٣٤` is 1234, never taken for a decimal comma).
 */
export function asciiNumberText(text: string): string {
  // most numbers are plain ASCII: one test instead of three passes
  if (!PHONE_CHARACTER.test(text)) return text;
  return asciiDigits(text)
    .replace(/\u066b/g, '.')
    .replace(/\u066c/g, "'");
}
