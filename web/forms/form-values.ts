/**
 * The values of an entry form, kept as the inputs hold them (a number field keeps the text typed,
 * so "85." is not lost mid-typing), and turned into the entry the server stores. Pure: no DOM.
 * Input descriptors come from src/common/inputs.ts.
 */
import { hasValue, type InputDescriptor } from '../../src/common/inputs.js';
import { cleanNumber, decimalPlaces } from '../../src/common/numbers.js';
import { readTypedNumber, type TypedNumber } from '../../src/common/typed-number.js';
import { lengthNotice } from '../lib/char-limit.js';

/** What the form holds, by input key. */
export type FormValues = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A stored value as its input holds it. A number stays the number until the person types over
 * it (the field shows its text): read back from its text it could change, as "96.667" in a
 * whole-number field reads as 96 667 grouped, so saving an entry unchanged would rewrite it.
 */
function fromStored(input: InputDescriptor, v: unknown): unknown {
  if (input.type === 'number')
    return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' ? v : undefined;
  if (input.type === 'chips-multi') return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return v;
}

/**
 * The form's starting values: the row being edited; else, for a new entry, the latest row when
 * `prefillFromLatest` (without its date field: the new entry gets the shown day); then each
 * input's `default`.
 * @param row the row being edited, or undefined for a new entry.
 * @param latest the most recent earlier row (for `prefillFromLatest`), or undefined.
 */
export function initialValues(
  inputs: readonly InputDescriptor[],
  opts: { row?: unknown; latest?: unknown; prefill?: boolean; dateField?: string } = {},
): FormValues {
  const out: FormValues = {};
  const source = isObject(opts.row)
    ? opts.row
    : opts.prefill && isObject(opts.latest)
      ? opts.latest
      : undefined;
  for (const input of inputs) {
    const fromRow = source && input.key !== (opts.dateField ?? 'date') ? source[input.key] : undefined;
    if (isObject(opts.row)) {
      out[input.key] = fromStored(input, opts.row[input.key]);
    } else if (fromRow !== undefined) {
      out[input.key] = fromStored(input, fromRow);
    } else if (input.default !== undefined) {
      out[input.key] = fromStored(input, input.default);
    } else if (input.type === 'chips-multi') {
      out[input.key] = [];
    }
  }
  return out;
}

/** Whether a number input takes whole numbers only (a whole `step`, as steps or a count). */
function wholeNumbers(input: InputDescriptor): boolean {
  return input.step !== undefined && Number.isInteger(input.step);
}

/** What the text in a number field reads as (typed-number.ts: `72,4`, `１２`, `٧٢٫٤` …). */
function typedNumber(input: InputDescriptor, v: string): TypedNumber {
  return readTypedNumber(v, { integer: wholeNumbers(input) });
}

/**
 * A form value as stored: number text read as the person wrote it (a decimal comma, grouped
 * digits, other scripts' digits); text that is not a number, or that could be two numbers
 * (`1,500`), is sent as typed, for the server to name (the form blocks Save on it first). A
 * number the form was filled with and nobody typed over goes back exactly as stored.
 */
function toStored(input: InputDescriptor, v: unknown): unknown {
  if (input.type === 'number' && typeof v === 'string') {
    const read = typedNumber(input, v);
    if (read.kind === 'empty') return undefined;
    return read.kind === 'number' ? read.value : v;
  }
  if (typeof v === 'string' && (input.type === 'text' || input.type === 'textarea'))
    return v.trim() === '' ? undefined : v;
  return v;
}

/**
 * The entry to send: every input with a value (empty ones left out, so clearing a field clears
 * it), plus `extra` (the date, `added`…), which the inputs do not override unless they fill the
 * same key with a value.
 */
export function toEntry(
  inputs: readonly InputDescriptor[],
  values: FormValues,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...extra };
  for (const input of inputs) {
    const v = toStored(input, values[input.key]);
    if (hasValue(v)) entry[input.key] = v;
    else if (!Object.hasOwn(extra, input.key)) delete entry[input.key];
  }
  return entry;
}

/** Why Save is not possible yet, as a sentence; null when it is. */
export function saveBlocker(
  inputs: readonly InputDescriptor[],
  requireAny: readonly string[],
  values: FormValues,
): string | null {
  const filled = (key: string) => {
    const input = inputs.find((i) => i.key === key);
    return hasValue(input ? toStored(input, values[key]) : values[key]);
  };
  if (requireAny.length > 0 && !requireAny.some(filled)) {
    const labels = requireAny.map((k) => inputs.find((i) => i.key === k)?.label ?? k);
    return `Fill in at least one of: ${labels.join(', ')}.`;
  }
  const missing = inputs.filter((i) => i.required && !requireAny.includes(i.key) && !filled(i.key));
  if (missing.length > 0)
    return `${missing.map((i) => i.label).join(', ')} ${missing.length > 1 ? 'are' : 'is'} needed.`;
  return numberProblem(inputs, values) ?? tooLong(inputs, values);
}

/**
 * A number field whose text is not a number ("Weight (kg) must be a number."), or could be two
 * (`1,500` in a field that takes decimals: "Water (L): “1,500” could be 1500 or 1.5. …"), as a
 * sentence; null when every number field reads.
 */
function numberProblem(inputs: readonly InputDescriptor[], values: FormValues): string | null {
  for (const input of inputs) {
    const v = values[input.key];
    if (input.type !== 'number' || typeof v !== 'string') continue;
    const read = typedNumber(input, v);
    if (read.kind === 'invalid') return `${input.label} must be a number.`;
    if (read.kind === 'ambiguous') {
      const [grouped, decimal] = read.readings;
      // both written with a point, the writing the form reads without doubt
      return `${input.label}: “${v.trim()}” could be ${grouped} or ${decimal}. Write ${decimal} with a point, or ${grouped} without the comma.`;
    }
  }
  return null;
}

/**
 * A text longer than its input's `maxLength`, as a sentence ("Note is 125 characters long; at most
 * 120."), or null. Counted as web/lib/char-limit.ts counts (characters as a person counts them,
 * as the server does), never by the browser's `maxlength`.
 */
function tooLong(inputs: readonly InputDescriptor[], values: FormValues): string | null {
  for (const input of inputs) {
    if (input.type !== 'text' && input.type !== 'textarea') continue;
    const v = values[input.key];
    if (input.maxLength === undefined || typeof v !== 'string') continue;
    const notice = lengthNotice(input.label, v, input.maxLength);
    if (notice) return notice;
  }
  return null;
}

/**
 * The fields of a row that no input edits (its date, a time or source an agent wrote): kept as
 * they are when the row is saved from the form, which replaces the whole row.
 */
export function keptFields(
  row: Record<string, unknown>,
  inputs: readonly { key: string }[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!inputs.some((i) => i.key === k)) out[k] = v;
  return out;
}

/**
 * A stepper's value one `step` up (`dir` 1) or down (-1) from `shown`, within `min`…`max`: kept
 * to the decimals of the step or of the value, whichever has more, so 0.1 steps add no float
 * tail (0.30000000000000004) and a value off the steps (2.5 from the phone, with a step of 1)
 * moves to 3.5, not rounded to 4.
 */
export function stepValue(
  shown: number,
  dir: 1 | -1,
  step: number,
  min = Number.NEGATIVE_INFINITY,
  max = Number.POSITIVE_INFINITY,
): number {
  const decimals = Math.max(decimalPlaces(step), decimalPlaces(shown));
  return Math.min(max, Math.max(min, cleanNumber(shown + dir * step, decimals)));
}
