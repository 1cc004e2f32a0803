/**
 * Unit conversion for HAE values (docs/HEALTH-AUTO-EXPORT.md "The metrics"). HAE writes one `units` string per metric block, chosen from each user's Health
 * settings, so the same metric arrives as `lb` for one person and `kg` for another, and `kJ` can
 * sit next to `kcal` in one payload. Every value is converted to its metric's canonical unit on
 * extraction, from the block's own `units` (a naive reader stores 176 lb as
 * "176 kg"). An unknown unit is never guessed: the caller skips the value and reports it.
 */

import { emptyTable } from '../../../common/lookup-table.js';
import { textMemo } from '../../../common/text-memo.js';

/** A conversion into the canonical unit: a factor, or a function for affine units (degF). */
export type Conversion = number | ((x: number) => number);

/** One physical dimension: the canonical unit and how every accepted spelling converts into it. */
export interface Dimension {
  /** Canonical unit as shown to people and to the model, e.g. `kg`, `kcal`, `min`. */
  readonly canonical: string;
  /** Accepted unit spellings → conversion into `canonical`. Keys are matched by `unitKey`. */
  readonly from: Readonly<Record<string, Conversion>>;
  /** A value sent without units is in `canonical` (see isUnitFree). */
  readonly bareIsCanonical: boolean;
}

/**
 * Normalised spelling used for lookups: degree-like signs made `°`, NFKC, lower case, no spaces,
 * brackets or underscores, `·`/`*` → `.`, and Apple's molar-mass note dropped
 * (`mmol<180.1558800000541>/L` → `mmol/l`).
 */
export function unitKey(units: string): string {
  return unitKeyOf(units);
}

// a payload repeats one `units` string per value: normalised once each
const unitKeyOf = textMemo((units) => spellUnit(units));

function spellUnit(units: string): string {
  const key = largeCalories(units)
    // `ºF` typed with the masculine ordinal (NFKC would make it `oF`), the ring above, the
    // superscript zero: all meant as the degree sign
    .replace(/[º˚⁰]/g, '°')
    .normalize('NFKC')
    .toLowerCase()
    // Apple writes the molar mass it converts with inside the unit; the digits vary
    .replace(/<[^>]*>/g, '')
    // `beats per minute`
    .replace(/\s+per\s+/g, '/')
    .replace(/[\s()_]/g, '')
    .replace(/[·*•⋅]/g, '.');
  return key.split('/').map(symbolOf).join('/');
}

/**
 * `units` with each `Cal` (capital C, alone between slashes or brackets) written `kcal`, before
 * case is dropped. HealthKit's unit strings, which the app and Apple's export write, tell the
 * two calories apart by case: `Cal` is the large (food) calorie, 1 kcal, what the Health app
 * shows as "Calories"; `cal` is the small calorie, a thousandth of that (a HealthKit sample saved
 * as 56 `cal` reads back as 0.056 kcal).
 */
function largeCalories(units: string): string {
  return units.replace(/(^|[\s/(])Cal(?=$|[\s/)])/g, '$1kcal');
}

/**
 * Units written as words, as scripts and other exporters name them (`milliseconds`, `miles`,
 * `kilocalories`, `beats per minute`), and the A-weighted decibels of sound levels (`dBA`,
 * `dB(A)`: what Apple's `dBASPL` measures) → the symbol each dimension knows. Each part of a
 * unit between slashes is looked up whole, as spellUnit leaves it (lower case, no spaces); a
 * word that could name two units (`calories`: kcal on a food label, cal in physics) is not here.
 */
const WORD_UNITS: Readonly<Record<string, string>> = {
  millisecond: 'ms',
  milliseconds: 'ms',
  msec: 'ms',
  second: 's',
  seconds: 's',
  sec: 's',
  secs: 's',
  minute: 'min',
  minutes: 'min',
  mins: 'min',
  hour: 'hr',
  hours: 'hr',
  hrs: 'hr',
  mile: 'mi',
  miles: 'mi',
  kilometer: 'km',
  kilometers: 'km',
  kilometre: 'km',
  kilometres: 'km',
  meter: 'm',
  meters: 'm',
  metre: 'm',
  metres: 'm',
  centimeter: 'cm',
  centimeters: 'cm',
  centimetre: 'cm',
  centimetres: 'cm',
  inch: 'in',
  inches: 'in',
  foot: 'ft',
  feet: 'ft',
  pounds: 'lb',
  kilogram: 'kg',
  kilograms: 'kg',
  kilos: 'kg',
  gram: 'g',
  grams: 'g',
  milligram: 'mg',
  milligrams: 'mg',
  microgram: 'mcg',
  micrograms: 'mcg',
  liter: 'l',
  liters: 'l',
  litre: 'l',
  litres: 'l',
  milliliter: 'ml',
  milliliters: 'ml',
  millilitre: 'ml',
  millilitres: 'ml',
  kilocalorie: 'kcal',
  kilocalories: 'kcal',
  kilojoule: 'kj',
  kilojoules: 'kj',
  kcals: 'kcal',
  watt: 'w',
  watts: 'w',
  kilowatt: 'kw',
  kilowatts: 'kw',
  mets: 'met',
  beats: 'count',
  breaths: 'count',
  decibel: 'db',
  decibels: 'db',
  dba: 'db',
  fahrenheit: '°f',
};

/** One part of a unit as its symbol (WORD_UNITS), or as it is. */
function symbolOf(part: string): string {
  return WORD_UNITS[part] ?? part;
}

const LB_KG = 0.45359237;
const KCAL_KJ = 4.184;
const MI_KM = 1.609344;
const FL_OZ_US_ML = 29.5735295625;
const FL_OZ_IMP_ML = 28.4130625;
const CUP_US_ML = 236.5882365;

function fahrenheit(f: number): number {
  return ((f - 32) * 5) / 9;
}

/**
 * A dimension from its spellings. A value without units counts as canonical when every spelling
 * converts with factor 1 (counts, %, dB), or when `bareIsCanonical` says so: a rate per minute
 * may also be written per second, but a heart rate sent with no unit at all is never in beats a
 * second (60 would be 3600 bpm).
 */
function dim(canonical: string, from: Record<string, Conversion>, bareIsCanonical?: true): Dimension {
  const keyed = emptyTable<Conversion>();
  for (const [k, v] of Object.entries(from)) keyed[unitKey(k)] = v;
  return {
    canonical,
    from: keyed,
    bareIsCanonical: bareIsCanonical ?? Object.values(keyed).every((c) => c === 1),
  };
}

/**
 * Every spelling of a speed, in m/s. Both speed dimensions (km/hr for walking, running and
 * cycling; m/s for stairs) read all of them: a phone set to US units writes a stair speed in
 * `ft/s` and a walk in `mi/hr`, the app's workouts write `kmph`, other exporters `km/h` or `mph`,
 * and a unit valid for one speed is never refused for another.
 */
const SPEED_MPS: Readonly<Record<string, number>> = {
  'm/s': 1,
  'km/hr': 1 / 3.6,
  'km/h': 1 / 3.6,
  kph: 1 / 3.6,
  kmph: 1 / 3.6,
  'km.h⁻¹': 1 / 3.6,
  'km.h-1': 1 / 3.6,
  'mi/hr': 0.44704,
  'mi/h': 0.44704,
  mph: 0.44704,
  'ft/s': 0.3048,
  'm.s⁻¹': 1,
  'm.s-1': 1,
  kn: 1852 / 3600,
  kt: 1852 / 3600,
  knots: 1852 / 3600,
};

/**
 * A speed dimension in `canonical`, reading every unit of SPEED_MPS (factors cut to 15 digits, so
 * 1 mi/hr is exactly 1.609344 km/hr).
 */
function speed(canonical: 'km/hr' | 'm/s'): Dimension {
  const scale = canonical === 'm/s' ? 1 : 3.6;
  const from: Record<string, number> = {};
  for (const [unit, mps] of Object.entries(SPEED_MPS))
    from[unit] = unit === canonical ? 1 : Number((mps * scale).toPrecision(15));
  return dim(canonical, from);
}

/** A rate per second as a rate per minute. */
const PER_SECOND = 60;

/** The dimensions the catalogue uses, each with the spellings real payloads and HealthKit use. */
export const DIMENSIONS = {
  count: dim('count', { count: 1, steps: 1, '': 1 }),
  // `Cal` is read as kcal before this lookup (largeCalories); `cal` is the small calorie
  kcal: dim('kcal', {
    kcal: 1,
    cal: 0.001,
    kJ: (kj) => kj / KCAL_KJ,
    J: (j) => j / (KCAL_KJ * 1000),
  }),
  kg: dim('kg', {
    kg: 1,
    kgs: 1,
    g: 0.001,
    lb: LB_KG,
    lbs: LB_KG,
    pound: LB_KG,
    pounds: LB_KG,
    st: 6.35029318,
    stone: 6.35029318,
    oz: LB_KG / 16,
  }),
  km: dim('km', { km: 1, m: 0.001, cm: 0.00001, mi: MI_KM, ft: 0.0003048, yd: 0.0009144 }),
  m: dim('m', { m: 1, km: 1000, cm: 0.01, mi: MI_KM * 1000, ft: 0.3048, yd: 0.9144 }),
  cm: dim('cm', { cm: 1, mm: 0.1, m: 100, in: 2.54, ft: 30.48 }),
  // a drink's `oz` is the US fluid ounce (the phones that write ounces are set to US units); the
  // imperial one is only ever named as such
  ml: dim('ml', {
    mL: 1,
    cL: 10,
    dL: 100,
    L: 1000,
    fl_oz_us: FL_OZ_US_ML,
    'fl oz': FL_OZ_US_ML,
    oz: FL_OZ_US_ML,
    fl_oz_imp: FL_OZ_IMP_ML,
    'fl oz imp': FL_OZ_IMP_ML,
    cup_us: CUP_US_ML,
    cup: CUP_US_ML,
    cups: CUP_US_ML,
  }),
  l: dim('L', { L: 1, mL: 0.001 }),
  lPerMin: dim('L/min', { 'L/min': 1, 'mL/min': 0.001 }),
  min: dim('min', { min: 1, s: 1 / 60, ms: 1 / 60_000, hr: 60, h: 60 }),
  s: dim('s', { s: 1, ms: 0.001, min: 60, hr: 3600, h: 3600 }),
  hr: dim('hr', { hr: 1, h: 1, min: 1 / 60, s: 1 / 3600 }),
  ms: dim('ms', { ms: 1, s: 1000 }),
  // a rate (heart, breathing, cadence) is per minute whatever it counts; a plain `count` is how
  // the app's documentation and some exporters label it; per second (HealthKit's `count/s`, Hz)
  // is the same rate counted per second
  perMin: dim(
    'count/min',
    {
      'count/min': 1,
      bpm: 1,
      '/min': 1,
      '1/min': 1,
      'min⁻¹': 1,
      'min-1': 1,
      'count.min⁻¹': 1,
      'count.min-1': 1,
      'beats/min': 1,
      'beat/min': 1,
      'beats per minute': 1,
      'breaths/min': 1,
      'breaths per minute': 1,
      'steps/min': 1,
      spm: 1,
      rpm: 1,
      count: 1,
      beats: 1,
      'count/s': PER_SECOND,
      'count/sec': PER_SECOND,
      'beats/s': PER_SECOND,
      '/s': PER_SECOND,
      '1/s': PER_SECOND,
      's⁻¹': PER_SECOND,
      's-1': PER_SECOND,
      'count.s⁻¹': PER_SECOND,
      'count.s-1': PER_SECOND,
      Hz: PER_SECOND,
    },
    true,
  ),
  // breathing disturbances: a rate per hour of sleep that the phone and Apple's export write as a
  // plain `count` (0.94 is "0.94 an hour", not a tally)
  perHour: dim('count/hr', { 'count/hr': 1, '/hr': 1, 'count/h': 1, count: 1 }),
  degC: dim('degC', {
    degC: 1,
    '°C': 1,
    C: 1,
    celsius: 1,
    degF: fahrenheit,
    '°F': fahrenheit,
    F: fahrenheit,
    fahrenheit,
    K: (k) => k - 273.15,
  }),
  // `fraction`: a share of one (0.05 is 5 %), as Apple's export writes every percentage (its `%`
  // is HealthKit's percent unit, whose 1 is 100 %); the Apple Health import names it so. A value
  // with no units is still a percent.
  pct: dim('%', { '%': 1, percent: 1, fraction: 100 }, true),
  // `mm[Hg]`: the UCUM spelling FHIR-based exporters write
  mmHg: dim('mmHg', { mmHg: 1, 'mm[Hg]': 1, kPa: 7.500615758 }),
  mgdl: dim('mg/dL', { 'mg/dL': 1 }),
  mmol: dim('mmol/L', { 'mmol/L': 1 }),
  // a nutrient may come in any mass unit (the unit the person chose, or the app that logged it):
  // each reads them all (the factors of the units read before unchanged, so are stored keys)
  g: dim('g', { g: 1, mg: 0.001, kg: 1000, oz: 28.349523125, mcg: 0.000001, µg: 0.000001, ug: 0.000001 }),
  mg: dim('mg', { mg: 1, g: 1000, mcg: 0.001, µg: 0.001, ug: 0.001, kg: 1_000_000, oz: 28_349.523125 }),
  mcg: dim('mcg', { mcg: 1, µg: 1, ug: 1, mg: 1000, g: 1_000_000, kg: 1_000_000_000, oz: 28_349_523.125 }),
  kmh: speed('km/hr'),
  mps: speed('m/s'),
  vo2: dim('ml/(kg·min)', { 'ml/(kg·min)': 1, 'mL/min·kg': 1, 'ml/kg/min': 1, 'ml/kg.min': 1 }),
  // a MET is 1 kcal per kg per hour however the hour and the product are written
  met: dim('kcal/hr·kg', {
    'kcal/hr·kg': 1,
    'kcal/h·kg': 1,
    MET: 1,
    'kcal/(kg·hr)': 1,
    'kcal/(kg·h)': 1,
    'kcal/kg/hr': 1,
    'kcal/kg/h': 1,
    'kcal/hr/kg': 1,
    'kcal/h/kg': 1,
  }),
  db: dim('dBASPL', { dBASPL: 1, dB: 1, 'dB SPL': 1 }),
  // a power sent with no unit is in watts (no device reports a workout's power in kW)
  watt: dim('W', { W: 1, kW: 1000 }, true),
  uS: dim('µS', { µS: 1, uS: 1, mcS: 1 }),
  iu: dim('IU', { IU: 1 }),
  // HealthKit's unit of the workout effort score (1 to 10), written by iOS 18 and later
  effort: dim('appleEffortScore', { appleEffortScore: 1, '': 1, count: 1 }),
  scalar: dim('', { '': 1, count: 1 }),
} as const satisfies Record<string, Dimension>;

/** Name of one of `DIMENSIONS`. */
export type DimensionName = keyof typeof DIMENSIONS;

/**
 * `x` in `units` converted into `dimension`'s canonical unit; an empty `units` means "already
 * canonical". Undefined for a unit the dimension does not know (the caller skips and reports).
 */
export function convertUnit(dimension: Dimension, units: string, x: number): number | undefined {
  const conv = conversionOf(dimension, units);
  if (conv === undefined) return undefined;
  return typeof conv === 'number' ? x * conv : conv(x);
}

/**
 * How values in `units` convert into `dimension`'s canonical unit (an empty `units`: factor 1),
 * or undefined for a unit the dimension does not know. Resolved once per metric block, so the
 * spelling is not normalised again for every value.
 */
export function conversionOf(dimension: Dimension, units: string): Conversion | undefined {
  return units.trim() === '' ? 1 : dimension.from[unitKey(units)];
}

/**
 * True when a value sent without `units` can only be in `dimension`'s canonical unit: every unit
 * it knows converts with factor 1 (counts, %, dB), or it is a rate per minute (a heart rate with
 * no unit is in bpm, see dim). Elsewhere (kg or lb, °C or °F, ml or fl oz) a missing unit is not
 * guessed.
 */
export function isUnitFree(dimension: Dimension): boolean {
  return dimension.bareIsCanonical;
}

/**
 * Significant digits of `x` as written shortest (`String(x)`): 155 → 3, 0.0105 → 3, 1.5e-7 → 2.
 * Trailing zeros of a whole number count (1500 → 4: it cannot be told whether they are measured).
 */
export function significantDigits(x: number): number {
  const text = String(Math.abs(x));
  const e = text.indexOf('e');
  const digits = (e < 0 ? text : text.slice(0, e)).replace('.', '').replace(/^0+/, '');
  return Math.max(1, digits.length);
}

/** `x` rounded to `digits` significant digits (1–15); 0 and non-finite numbers as they are. */
export function toSignificant(x: number, digits: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(Math.min(15, Math.max(1, digits))));
}

/**
 * Significant digits a converted value keeps: the source's plus CONVERTED_EXTRA_DIGITS, at least
 * CONVERTED_MIN_DIGITS. Converting leaves binary float tails (154.999 lb → 70.30000000000001 kg,
 * 0.57 → 56.99999999999999 %) that are not a measurement; a few digits more than the source had
 * keep every digit it measured, and the floor keeps the sum of many small converted values (a day
 * of 0.5 kJ records) within a few millionths of the sum of the exact ones.
 */
const CONVERTED_EXTRA_DIGITS = 3;
const CONVERTED_MIN_DIGITS = 7;

/**
 * `x` (a value as sent) times `scale` (a unit's factor, 100 for a fraction made a percent) or
 * through `conv`, rounded as said above. A factor of 1 leaves `x` exactly as it is.
 */
export function convertRounded(conv: Conversion, x: number, scale = 1): number {
  const exact = (typeof conv === 'number' ? x * conv : conv(x)) * scale;
  if (conv === 1 && scale === 1) return exact;
  return roundConverted(exact, x);
}

/**
 * `exact`, a value worked out from `sent` (converted, or seconds made minutes), rounded to the
 * significant digits convertRounded keeps for `sent`.
 */
export function roundConverted(exact: number, sent: number): number {
  return toSignificant(
    exact,
    Math.max(CONVERTED_MIN_DIGITS, significantDigits(sent) + CONVERTED_EXTRA_DIGITS),
  );
}
