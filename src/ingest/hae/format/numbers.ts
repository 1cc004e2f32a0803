/**
 * Reading and rounding numbers from HAE JSON.
 *
 * JSON has no NaN or Infinity, but `JSON.parse('1e999')` gives Infinity: such values are never
 * kept. Sums and means are computed on the unrounded values and rounded once, per output
 * field, so float artefacts (`188.70000571768875`, `0.7999999999999999`) never show and 47 × 0.4
 * minutes stays 18.8.
 */

/** Numeric text HAE-like producers might send instead of a number (`"12.5"`). */
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A JSON value as a number: finite numbers as they are, numeric strings parsed; everything else
 * (null, booleans, objects, '', NaN, ±Infinity) → undefined. `nonFinite` tells a caller that the
 * value was a number-like thing that is not finite (to count it apart from "missing").
 */
export function readNumber(v: unknown): { value?: number; nonFinite?: true } {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && NUMERIC_TEXT.test(v.trim())) n = Number(v.trim());
  else return {};
  return Number.isFinite(n) ? { value: n } : { nonFinite: true };
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
