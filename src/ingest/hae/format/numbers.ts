/**
 * Reading and rounding numbers from HAE JSON.
 *
 * JSON has no NaN or Infinity, but `JSON.parse('1e999')` gives Infinity: such values are never
 * kept. Sums and means are computed on the unrounded values and rounded once, per output
 * field, so float artefacts (`188.70000571768875`, `0.7999999999999999`) never show and 47 × 0.4
 * minutes stays 18.8.
 */

import { asciiNumberText } from './phone-calendars.js';

/** Numeric text HAE-like producers might send instead of a number (`"12.5"`). */
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A JSON value as a number: finite numbers as they are, numeric strings parsed (also as a phone
 * set to another region writes them, localNumber, and in its own digits, `٧٢٫٥`:
 * phone-calendars.ts asciiNumberText); everything else (null, booleans, objects, '',
 * NaN, ±Infinity) → undefined. `nonFinite` tells a caller that the value was a number-like thing
 * that is not finite (to count it apart from "missing"); `ambiguous` that it is text like
 * `12,345`, where the comma may be a decimal or a thousands mark (never guessed).
 */
export function readNumber(v: unknown): { value?: number; nonFinite?: true; ambiguous?: true } {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v !== 'string') return {};
  else {
    const text = asciiNumberText(v.trim());
    if (!NUMERIC_TEXT.test(text)) return localNumber(text.trim());
    n = Number(text);
  }
  return Number.isFinite(n) ? { value: n } : { nonFinite: true };
}

/** A number followed by its unit, as text (`"70.5 kg"`, `"1,2 l"`, `"98.6°F"`). */
const NUMBER_AND_UNIT = /^\s*([-+]?[\d.,\s\u00a0\u202f']*\d(?:[eE][-+]?\d+)?)\s*([^\d\s.,+'-][^\d]*?)\s*$/;

/**
 * Text holding a number and its unit (`"70.5 kg"`, `"1 046 kJ"`, also in the phone's own digits,
 * `"۷۱٫۹ kg"`) as the number's text (read by readNumber) and the unit; undefined for any other
 * text (a bare number included).
 */
export function numberAndUnit(text: string): { qty: string; units: string } | undefined {
  const m = NUMBER_AND_UNIT.exec(asciiNumberText(text));
  return m ? { qty: m[1], units: m[2] } : undefined;
}

/** `72,5` / `-0,25`: a decimal comma (not followed by exactly three digits). */
const DECIMAL_COMMA = /^[+-]?\d+,(\d{1,2}|\d{4,})$/;
/** `1.234,5` / `1,234.5` / `1 234,5` / `1'234.5`: digits grouped by three, then a decimal part. */
const GROUPED = /^[+-]?\d{1,3}([.,\s\u00a0\u202f'’])\d{3}(?:\1\d{3})*(?:([.,])\d+)?$/;
/** `12,345` / `1.000`: one separator before three digits, a decimal mark or a grouping one. */
const ONE_GROUP = /^[+-]?\d{1,3}[.,]\d{3}$/;

/**
 * A number as text in a region's own writing (a Shortcut or an app reading the phone's region
 * writes `62,45` for 62.45 and `1.234,5` for 1234.5): read when the writing says which mark is the
 * decimal one; `12,345` cannot tell and is reported `ambiguous`; anything else is not a number.
 */
function localNumber(text: string): { value?: number; ambiguous?: true } {
  if (DECIMAL_COMMA.test(text)) return { value: Number(text.replace(',', '.')) };
  if (ONE_GROUP.test(text)) return { ambiguous: true };
  const m = GROUPED.exec(text);
  if (!m || (m[2] !== undefined && m[2] === m[1])) return {};
  const digits = text.split(m[1]).join('');
  return { value: Number(m[2] === ',' ? digits.replace(',', '.') : digits) };
}

/**
 * `x` rounded to `decimals` places, half away from zero, without float artefacts: the product is
 * first cut to 15 significant digits so 1.005 → 1.01 and 18.799999999999997 → 18.8.
 * Non-finite input gives undefined (the field is then dropped, never written as null or NaN).
 */
export function roundTo(x: number, decimals: number): number | undefined {
  if (!Number.isFinite(x)) return undefined;
  const f = 10 ** decimals;
  const raw = Math.abs(x) * f;
  // cutting to 15 digits only moves the result when the product sits within ~1e-15 of a half
  // (or is too large for 15 digits to hold its integer part): elsewhere round it as it is, without
  // the text round trip (card rows round every field of every row)
  const whole = Math.floor(raw);
  const near = Math.abs(raw - whole - 0.5) <= 1e-9 * (raw + 1);
  const scaled = raw < 1e14 && !near ? raw : Number(raw.toPrecision(15));
  const r = (Math.sign(x) * Math.round(scaled)) / f;
  return Object.is(r, -0) ? 0 : r;
}
