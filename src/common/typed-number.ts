/**
 * A number as a person types it into a form field, in whatever writing their keyboard and region
 * give: `72.4`, `72,4` (a decimal comma: German, French, a numeric keypad's decimal key), `1.234,5`
 * or `1,234.5` (grouped), full-width digits from a Japanese or Chinese input method (`７２．４`),
 * Arabic-Indic or Persian digits (`٧٢٫٤`, `۷۲٫۴`), a typographic minus (`−3`). A comma before
 * exactly three digits (`1,500`) is a decimal mark in one region and a thousands mark in another:
 * it is never guessed, except where only one reading is a whole number a whole-number field can
 * hold. Shared by the server and the browser: no Node imports.
 */

/** What a typed text reads as. */
export type TypedNumber =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  /** `1,500`: 1500 or 1.5; `readings` gives both, as they would be written with a point. */
  | { kind: 'ambiguous'; readings: [number, number] }
  | { kind: 'invalid' };

/** A plain decimal number: `7`, `-0.5`, `.5`, `85.30`, `1e3`; no hex, no spaces inside. */
const PLAIN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** `72,5` / `-0,25` / `0,0001`: one decimal comma, not followed by exactly three digits. */
const DECIMAL_COMMA = /^[+-]?\d*,(?:\d{1,2}|\d{4,})$/;
/** `1,500` / `12.345`: one mark before exactly three digits, a decimal mark or a grouping one. */
const ONE_GROUP = /^([+-]?\d{1,3})([.,])(\d{3})$/;
/** `1.234,5` / `1,234.5` / `1 234,5` / `1'234.5`: digits grouped by three, then a decimal part. */
const GROUPED = /^[+-]?\d{1,3}([.,\s\u00a0\u202f'’])\d{3}(?:\1\d{3})*(?:([.,])\d+)?$/;

/** Digit runs of other scripts that keyboards type into number fields, by their zero. */
const DIGIT_ZEROS = [0x0660 /* Arabic-Indic */, 0x06f0 /* Persian */, 0x0966 /* Devanagari */];

/**
 * `text` in ASCII: full-width forms folded (NFKC), other scripts' digits as 0-9, the Arabic
 * decimal and thousands marks as `.` and `,`, the typographic minus as `-`, trimmed.
 */
function asciiDigits(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFKC').trim()) {
    const c = ch.codePointAt(0) ?? 0;
    const zero = DIGIT_ZEROS.find((z) => c >= z && c <= z + 9);
    if (zero !== undefined) out += String(c - zero);
    else if (ch === '\u066b') out += '.';
    else if (ch === '\u066c' || ch === '\u060c') out += ',';
    else if (ch === '\u2212') out += '-';
    else out += ch;
  }
  return out;
}

function finite(n: number): TypedNumber {
  return Number.isFinite(n) ? { kind: 'number', value: n } : { kind: 'invalid' };
}

/**
 * Reads `text` typed into a number field. `integer`: the field takes whole numbers only (its step
 * is whole), so `1,500` can only be 1500.
 */
export function readTypedNumber(text: string, opts: { integer?: boolean } = {}): TypedNumber {
  const t = asciiDigits(text);
  if (t === '') return { kind: 'empty' };
  const one = ONE_GROUP.exec(t);
  // a whole-number field (steps) can only hold 8,432 or 8.432 as 8432
  if (one && opts.integer) return finite(Number(`${one[1]}${one[3]}`));
  // a point is the decimal mark the form itself writes (72.4), so 12.345 is read as written
  if (PLAIN.test(t)) return finite(Number(t));
  if (DECIMAL_COMMA.test(t)) return finite(Number(t.replace(',', '.')));
  if (one)
    return { kind: 'ambiguous', readings: [Number(`${one[1]}${one[3]}`), Number(`${one[1]}.${one[3]}`)] };
  const m = GROUPED.exec(t);
  if (!m || (m[2] !== undefined && m[2] === m[1])) return { kind: 'invalid' };
  const digits = t.split(m[1]).join('');
  return finite(Number(m[2] === ',' ? digits.replace(',', '.') : digits));
}
