/**
 * Numbers as a person reads them. Shared by the server and the browser: no
 * Node imports.
 *
 * - JSON has no NaN or Infinity, so a non-finite number is never a value; it counts as
 *   missing everywhere a number is read (templates, thresholds, trends, sparklines).
 * - Binary floating point leaves tails on sums and differences (0.1 + 0.2 is
 *   0.30000000000000004, 85.5 - 85.3 is 0.20000000000000284). Those tails are removed before a
 *   number is shown or compared. Stored values are never rewritten: these helpers only shape what
 *   is displayed or compared.
 */

/**
 * Significant digits kept by `cleanNumber` without `decimals`: 15 is the most a double holds
 * exactly for every decimal (DBL_DIG), so any number a person typed (up to 15 significant digits)
 * comes back unchanged, while the one-ulp tails of sums are cut off.
 */
export const SIGNIFICANT_DIGITS = 15;

/** Largest `decimals` the helpers accept (more is clamped); also the template's `round(N)` limit. */
export const MAX_DECIMALS = 20;

/** True for a number that is not NaN or ±Infinity (a value JSON can hold). */
export function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** A decimal number written as text: `7`, `-0.5`, `.5`, `85.30`, `1e3`; no hex, no spaces inside. */
const NUMERIC_TEXT_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a stored value stands for: a finite number as is, or a string holding a decimal
 * number (surrounding spaces allowed, as a hand-edited file or a form may leave them). Anything
 * else (booleans, '', null, `"1e999"` which overflows, NaN, ±Infinity) is `null`.
 */
export function toFiniteNumber(x: unknown): number | null {
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x !== 'string') return null;
  const t = x.trim();
  if (!NUMERIC_TEXT_RE.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * `x` without float artefacts. With `decimals`, rounded half away from zero to that many
 * decimals, on the number's decimal digits (so 1.005 → 1.01, where `toFixed` gives 1.00). Without,
 * rounded to SIGNIFICANT_DIGITS significant digits, which removes the tail of a sum
 * (0.1 + 0.2 → 0.3, 0.7 + 0.1 → 0.8) and leaves every typed number as typed. A difference of two
 * close numbers needs `decimals` (see `decimalPlaces`): 85.5 - 85.3 → `cleanNumber(d, 1)` = 0.2.
 * Never returns -0. A non-finite `x` is returned unchanged (callers check with `isFiniteNumber`).
 */
export function cleanNumber(x: number, decimals?: number): number {
  if (!Number.isFinite(x)) return x;
  const n =
    decimals === undefined ? Number(x.toPrecision(SIGNIFICANT_DIGITS)) : Number(formatFixed(x, decimals));
  return n === 0 ? 0 : n;
}

/**
 * Digits after the decimal point in the shortest text of `x` once cleaned (85.3 → 1, 7 → 0,
 * 1e-7 → 7, 0.1 + 0.2 → 1). Used to round a difference to the precision of its inputs.
 */
export function decimalPlaces(x: number): number {
  if (!Number.isFinite(x)) return 0;
  const s = String(cleanNumber(x));
  const m = /^-?\d*(?:\.(\d+))?(?:e([+-]\d+))?$/i.exec(s);
  if (!m) return 0;
  const frac = m[1]?.length ?? 0;
  const exp = m[2] ? Number(m[2]) : 0;
  return Math.min(MAX_DECIMALS, Math.max(0, frac - exp));
}

/**
 * `x` as text with exactly `decimals` digits after the point, like `toFixed` but: the float tail is
 * cleaned first, halves round away from zero on the decimal digits (1.005 → "1.01",
 * -2.5 → "-3"), and a result that is zero never shows a minus sign (-0.04 → "0.0"). `decimals` is
 * clamped to 0..MAX_DECIMALS and truncated to an integer. Non-finite `x` gives ''.
 */
export function formatFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return '';
  const d = Math.min(MAX_DECIMALS, Math.max(0, Math.trunc(Number.isFinite(decimals) ? decimals : 0)));
  const clean = Number(x.toPrecision(SIGNIFICANT_DIGITS));
  const text = String(Math.abs(clean));
  // Exponent forms (below 1e-6 or from 1e21): toFixed is exact enough there.
  if (/e/i.test(text)) return stripNegativeZero(clean.toFixed(d));
  const [intPart, fracPart = ''] = text.split('.');
  let digits: string;
  if (fracPart.length <= d) {
    digits = intPart + fracPart.padEnd(d, '0');
  } else {
    const kept = BigInt(intPart + fracPart.slice(0, d));
    digits = (fracPart.charCodeAt(d) >= 53 /* '5' */ ? kept + 1n : kept).toString().padStart(d + 1, '0');
  }
  const body = d === 0 ? digits : `${digits.slice(0, -d)}.${digits.slice(-d)}`;
  const isZero = /^[0.]*$/.test(body);
  return clean < 0 && !isZero ? `-${body}` : body;
}

function stripNegativeZero(s: string): string {
  return /^-[0.]*$/.test(s) ? s.slice(1) : s;
}

/**
 * A number as plain text for display: cleaned of float artefacts (`cleanNumber`), no grouping,
 * '' for a non-finite number (never "NaN" or "Infinity").
 */
export function numberText(x: number): string {
  return Number.isFinite(x) ? String(cleanNumber(x)) : '';
}

/**
 * The largest of `values` (-Infinity for none), by a loop: `Math.max(...values)` passes every
 * value as an argument, and engines stop such a call long before a card runs out of readings
 * (Safari at 65 536, V8 near 120 000; a day of second-by-second heart rate is 86 400).
 */
export function largest(values: Iterable<number>): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > m || Number.isNaN(v)) m = v;
  return m;
}

/** The smallest of `values` (Infinity for none), by a loop (see `largest`). */
export function smallest(values: Iterable<number>): number {
  let m = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < m || Number.isNaN(v)) m = v;
  return m;
}

/** The most decimal places of any of `values` (`decimalPlaces`; 0 for none), by a loop. */
export function mostDecimals(values: Iterable<number>): number {
  let m = 0;
  for (const v of values) m = Math.max(m, decimalPlaces(v));
  return m;
}
