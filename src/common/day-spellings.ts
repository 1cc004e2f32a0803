/**
 * Where, in text order, the dates written by hand another way than `YYYY-MM-DD` lie (the
 * spellings isoDateSpelling reads: `2026-4-6`, `2026/04/06`, `2026.4.6`, `6.4.2026`), so a
 * reader of the rows' date index finds such rows with a few range reads instead of reading every
 * row. Ranges are `[from, to)` of text compared byte by byte, as SQLite compares it.
 */

/** Sorts after every text that starts with what comes before it (the last code point). */
const AFTER_ALL = '\u{10FFFF}';

/** A range of texts `[from, to)`. */
export type TextRange = readonly [from: string, to: string];

/** The texts starting with `prefix` (a date, then maybe a time). */
export function startingWith(prefix: string): TextRange {
  return [prefix, prefix + AFTER_ALL];
}

/** Every text sorting at or after `from`. */
export function from(text: string): TextRange {
  return [text, AFTER_ALL];
}

/** The texts starting with a year from that of `first` to that of `last` (both `YYYY-MM-DD`). */
export function yearsRange(first: string, last: string): TextRange {
  return [first.slice(0, 4), last.slice(0, 4) + AFTER_ALL];
}

/** The ways `n` (a month or day number) is written: zero-padded, and without the zero. */
function numberSpellings(n: string): string[] {
  return n.startsWith('0') ? [n, n.slice(1)] : [n];
}

/**
 * Every spelling of the day `YYYY-MM-DD` other than that one which isoDateSpelling reads as it:
 * year first with `-`, `/` or `.` (with and without zero padding), day first with dots. A row's
 * date written so starts with one of them (a time may follow).
 */
export function handSpellingsOf(day: string): string[] {
  const [y, m, d] = [day.slice(0, 4), day.slice(5, 7), day.slice(8, 10)];
  const out: string[] = [];
  for (const mm of numberSpellings(m)) {
    for (const dd of numberSpellings(d)) {
      for (const sep of ['-', '/', '.']) out.push(`${y}${sep}${mm}${sep}${dd}`);
      out.push(`${dd}.${mm}.${y}`);
    }
  }
  return out.filter((s) => s !== day);
}

/**
 * The ranges holding every date written day first with dots (`6.4.2026`, `06.04.2026`): one per
 * day number, `1.` to `9.` and `01.` to `31.` (`/` follows `.` in text order).
 */
export const DAY_FIRST_RANGES: readonly TextRange[] = [
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}`),
  ...Array.from({ length: 31 }, (_, i) => String(i + 1).padStart(2, '0')),
].map((n) => [`${n}.`, `${n}/`] as const);
