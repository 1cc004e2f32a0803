/**
 * The numeric fidelity gate: a model's summary of a report may not carry a number the document
 * does not. Every number in the summary (title, bullets, body, document date) must appear in the
 * extracted text with the same value, and, when the summary gives it a unit of measurement, with
 * the same unit on that line of the document. Formats are tolerated, values are not: `7.0` = `7`,
 * `1,234` = `1234`, German `13,2` = `13.2`, `02.03.2026` = `2026-03-02` = `2 March 2026`; but
 * `5.8` ≠ `5.4` and `5.4 mg/dL` ≠ `5.4 mmol/L`. A number the model worked out itself (a sum, a
 * count, a converted unit) fails the gate on purpose: the report then keeps the document's own
 * text instead of a summary that could be wrong.
 */

/** One number of the summary that the document does not back. */
export interface Unbacked {
  /** The number as the summary wrote it, with its unit when it has one ("5.8 mmol/L"). */
  text: string;
  /** Why: not in the document at all, or there only with another unit. */
  problem: 'missing' | 'unit';
}

/** The verdict on a summary. */
export interface FidelityResult {
  ok: boolean;
  unbacked: Unbacked[];
}

/** Units of measurement compared by the gate (lower case, µ written u). Any other word after a number is not a unit. */
const UNITS = new Set(
  [
    '%',
    '‰',
    'g/dl',
    'g/l',
    'mg/dl',
    'mg/l',
    'ug/l',
    'ug/dl',
    'ng/ml',
    'ng/l',
    'pg/ml',
    'ug/ml',
    'mmol/l',
    'umol/l',
    'nmol/l',
    'pmol/l',
    'mol/l',
    'meq/l',
    'iu/l',
    'u/l',
    'miu/l',
    'mu/l',
    'uiu/ml',
    'miu/ml',
    'iu/ml',
    'u/ml',
    'ie/l',
    'ie/ml',
    'g/24h',
    'mg/24h',
    'fl',
    'pg',
    'mmhg',
    'kg',
    'g',
    'mg',
    'ug',
    'ng',
    'ml',
    'l',
    'dl',
    'cm',
    'mm',
    'm',
    'bpm',
    '/min',
    '/ul',
    '/nl',
    '/pl',
    'g/nl',
    't/l',
    'g/l',
    '/l',
    'x10^9/l',
    'x10^12/l',
    '10^9/l',
    '10^12/l',
    'sec',
    's',
    'min',
    'h',
    '°c',
    'kcal',
    'kg/m2',
    'kg/m²',
    'ml/min',
    'ml/min/1.73m2',
    'ml/min/1.73m²',
    'mosm/kg',
    'mg/g',
    'mg/mmol',
    'iu',
    'ie',
    'units',
    'mcg',
    'ms',
    'mm/h',
  ].map((u) => u.toLowerCase()),
);

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  januar: 1,
  jänner: 1,
  feb: 2,
  february: 2,
  februar: 2,
  mar: 3,
  march: 3,
  märz: 3,
  maerz: 3,
  apr: 4,
  april: 4,
  may: 5,
  mai: 5,
  jun: 6,
  june: 6,
  juni: 6,
  jul: 7,
  july: 7,
  juli: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  okt: 10,
  oktober: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
  dez: 12,
  dezember: 12,
};

const MONTH_WORD = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

/** A unit written the way the gate compares it. */
export function normaliseUnit(u: string): string {
  return u
    .toLowerCase()
    .replace(/[µμ]/g, 'u')
    .replace(/mcg/g, 'ug')
    .replace(/\s+/g, '')
    .replace(/[×*]/g, 'x')
    .replace(/\.$/, '');
}

/** The values a written number can mean (both readings of `1,234` and `5,4`). Empty when it is not a plain number. */
export function numberValues(raw: string): number[] {
  if (/^\d+$/.test(raw)) return [Number(raw)];
  const single = /^(\d+)([.,])(\d+)$/.exec(raw);
  if (single) {
    const decimal = Number(`${single[1]}.${single[3]}`);
    const values = [decimal];
    if (single[3].length === 3) values.push(Number(`${single[1]}${single[3]}`));
    return values;
  }
  // 1,234,567 / 1.234.567 (thousands) and 1,234.5 / 1.234,5 (thousands and decimals)
  const m = /^(\d{1,3})((?:[.,]\d{3})+)(?:([.,])(\d+))?$/.exec(raw);
  if (m) {
    const sep = m[2][0];
    if (m[3] && m[3] === sep) return [];
    const whole = Number(m[1] + m[2].replace(/[.,]/g, ''));
    return [m[4] ? Number(`${whole}.${m[4]}`) : whole];
  }
  return [];
}

const pad = (n: number) => String(n).padStart(2, '0');

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** The dates written in `text`, as ISO days, and `text` with them blanked out (so their parts are not read as numbers). */
export function findDates(text: string): { dates: Set<string>; rest: string } {
  const dates = new Set<string>();
  const patterns: [RegExp, (m: RegExpExecArray) => (string | null)[]][] = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (m) => [iso(+m[1], +m[2], +m[3])]],
    [/\b(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})\b/g, (m) => [iso(+m[3], +m[2], +m[1])]],
    [/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, (m) => [iso(+m[3], +m[2], +m[1]), iso(+m[3], +m[1], +m[2])]],
    [
      new RegExp(`\\b(\\d{1,2})\\.?\\s+(${MONTH_WORD})\\.?,?\\s+(\\d{4})\\b`, 'giu'),
      (m) => [iso(+m[3], MONTHS[m[2].toLowerCase()], +m[1])],
    ],
    [
      new RegExp(`\\b(${MONTH_WORD})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'giu'),
      (m) => [iso(+m[3], MONTHS[m[1].toLowerCase()], +m[2])],
    ],
  ];
  let rest = text;
  for (const [re, read] of patterns) {
    rest = rest.replace(re, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const found = read(match).filter((d): d is string => d !== null);
      for (const d of found) dates.add(d);
      return found.length ? ' '.repeat(String(args[0]).length) : String(args[0]);
    });
  }
  return { dates, rest };
}

/** One number in a text: its readings, the unit right after it (if a known unit), and its line. */
interface Mention {
  raw: string;
  values: number[];
  unit: string | null;
  /** The unit as written. */
  unitText: string | null;
  line: string;
}

const NUMBER = /(?<![\p{L}\d.,])\d+(?:[.,]\d+)*/gu;
const UNIT_AFTER = /^\s?(?:[x×*]\s?10\^?\d+\s?\/\s?[a-zµμ]+|[%‰]|°C|\/[a-zµμ]+|[a-zµμ][a-zµμ²0-9./]{0,14})/iu;

function unitAfter(tail: string): { unit: string; text: string } | null {
  const m = UNIT_AFTER.exec(tail);
  if (!m) return null;
  const text = m[0].trim().replace(/[.,;:)]+$/, '');
  const unit = normaliseUnit(text);
  return UNITS.has(unit) ? { unit, text } : null;
}

/** Every number in `text` (dates already blanked out). */
function mentions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const line of text.split(/\r?\n|\f/)) {
    // ordered-list markers ("1. ", "2) ") at the start of a line are layout, not numbers
    const body = line.replace(/^(\s*)\d{1,2}[.)]\s/, '$1   ');
    for (const m of body.matchAll(NUMBER)) {
      const raw = m[0];
      const tail = body.slice((m.index ?? 0) + raw.length);
      const unit = unitAfter(tail);
      out.push({
        raw,
        values: numberValues(raw),
        unit: unit?.unit ?? null,
        unitText: unit?.text ?? null,
        line: normaliseUnit(line),
      });
    }
  }
  return out;
}

const same = (a: number[], b: number[]) => a.some((x) => b.some((y) => Math.abs(x - y) < 1e-9));

/**
 * Checks `summary` (the model's title, date, bullets and body joined) against `source` (the
 * extracted text).
 */
export function checkNumericFidelity(summary: string, source: string): FidelityResult {
  const src = findDates(source);
  const sum = findDates(summary);
  const unbacked: Unbacked[] = [];
  for (const d of sum.dates) if (!src.dates.has(d)) unbacked.push({ text: d, problem: 'missing' });
  // the source's dates stay readable as numbers too (a summary may say "March 2026")
  const sourceMentions = mentions(source);
  for (const m of mentions(sum.rest)) {
    const matches = sourceMentions.filter((s) =>
      m.values.length ? same(m.values, s.values) : s.raw === m.raw,
    );
    const text = m.unitText ? `${m.raw} ${m.unitText}` : m.raw;
    if (matches.length === 0) unbacked.push({ text, problem: 'missing' });
    else if (
      m.unit &&
      !matches.some((s) => s.unit === m.unit || (s.unit === null && s.line.includes(m.unit as string)))
    ) {
      unbacked.push({ text, problem: 'unit' });
    }
  }
  return { ok: unbacked.length === 0, unbacked };
}

/** A sentence naming the unbacked numbers, for the report's "not summarised" note. */
export function describeUnbacked(unbacked: Unbacked[]): string {
  const shown = unbacked
    .slice(0, 5)
    .map((u) => (u.problem === 'unit' ? `${u.text} (another unit in the document)` : u.text));
  const more = unbacked.length > 5 ? ` and ${unbacked.length - 5} more` : '';
  return `the summary gave ${shown.join(', ')}${more}, which the document does not say`;
}
