/**
 * A card's entry-form inputs (docs/MANIFEST-SCHEMA.md "writeable" and "Input types";
 * docs/MANIFEST-SCHEMA.md "Input types"), read the same way by the server's write policy and the
 * browser's entry form. No Node imports.
 *
 * Older manifests are read as their newer equivalents: inputs under `meta.view.inputs` instead of
 * `meta.writeable.inputs`, keyed by `name` instead of `key` (the bp example), and the American
 * `color` type is `colour`. Anything that cannot be an input (no key, unknown type, not an object)
 * is left out rather than breaking the form.
 */

/** Input types of a form (docs/MANIFEST-SCHEMA.md table plus `chips` / `chips-multi`); `color` reads as `colour`. */
export const FORM_INPUT_TYPES = [
  'number',
  'stepper',
  'text',
  'textarea',
  'select',
  'emoji-picker',
  'colour',
  'checkbox',
  'date',
  'time',
  'rating',
  'chips',
  'chips-multi',
] as const;

/** One of `FORM_INPUT_TYPES`. */
export type FormInputType = (typeof FORM_INPUT_TYPES)[number];

/** The mood set an `emoji-picker` offers when its manifest lists no `emojis`. */
export const DEFAULT_MOOD_EMOJIS: readonly string[] = ['😩', '😕', '😐', '🙂', '😄'];

/** Default range of a `rating` (1..5). */
export const DEFAULT_RATING_MIN = 1;
export const DEFAULT_RATING_MAX = 5;

/** Most stars/points a rating offers (a hand-written `max: 1000` must not draw 1000 buttons). */
export const MAX_RATING_STEPS = 10;

/** One choice of a `select`, `chips` or `chips-multi` input: the stored value and its label. */
export interface InputOption {
  value: string | number | boolean;
  label: string;
}

/**
 * An input descriptor as the form and the write policy read it. `key` is the row field it fills.
 * Options are copied from the manifest only when they have the expected type (a hand-written
 * `"min": "ten"` is ignored, not trusted).
 */
export interface InputDescriptor {
  key: string;
  type: FormInputType;
  label: string;
  required: boolean;
  default?: unknown;
  help?: string;
  placeholder?: string;
  /** number / stepper / rating bounds. */
  min?: number;
  max?: number;
  step?: number;
  /** text / textarea: most characters (user-perceived). */
  maxLength?: number;
  /** textarea rows. */
  rows?: number;
  /** select / chips / chips-multi choices. */
  options?: InputOption[];
  /** emoji-picker choices. */
  emojis?: string[];
  /** emoji-picker: store the 1-based position (1..N) instead of the emoji. */
  emitIndex?: boolean;
  /** emoji-picker: save the form as soon as an emoji is picked. */
  autoSubmit?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const posInt = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

/** `color` → `colour`; null for a type no form knows. */
export function formInputType(t: unknown): FormInputType | null {
  if (t === 'color') return 'colour';
  return typeof t === 'string' && (FORM_INPUT_TYPES as readonly string[]).includes(t)
    ? (t as FormInputType)
    : null;
}

/** "wakeUps" → "Wake ups", "blood_sugar" → "Blood sugar": a label for an input that has none. */
export function labelFromKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/**
 * The choices of a select/chips input: `options` as strings (value = label) or `{value, label}`
 * objects (label defaults to the value as text). Entries that are neither are skipped.
 */
export function optionsOf(raw: unknown): InputOption[] {
  if (!Array.isArray(raw)) return [];
  const out: InputOption[] = [];
  for (const o of raw) {
    if (typeof o === 'string' || (typeof o === 'number' && Number.isFinite(o))) {
      out.push({ value: o, label: String(o) });
    } else if (isObject(o)) {
      const v = o.value;
      if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) {
        out.push({ value: v, label: str(o.label) ?? String(v) });
      }
    }
  }
  return out;
}

/**
 * One input descriptor from a manifest entry, or null when it cannot be one (not an object, no
 * non-empty `key` (or legacy `name` when `key` is absent), unknown type).
 */
export function normaliseInput(raw: unknown): InputDescriptor | null {
  if (!isObject(raw)) return null;
  const key = raw.key !== undefined ? str(raw.key) : str(raw.name);
  const type = formInputType(raw.type);
  if (key === undefined || type === null) return null;
  const d: InputDescriptor = {
    key,
    type,
    label: str(raw.label) ?? labelFromKey(key),
    required: raw.required === true,
  };
  if (raw.default !== undefined) d.default = raw.default;
  if (str(raw.help)) d.help = raw.help as string;
  if (str(raw.placeholder)) d.placeholder = raw.placeholder as string;
  if (num(raw.min) !== undefined) d.min = raw.min as number;
  if (num(raw.max) !== undefined) d.max = raw.max as number;
  if (num(raw.step) !== undefined && (raw.step as number) > 0) d.step = raw.step as number;
  if (posInt(raw.maxLength) !== undefined) d.maxLength = raw.maxLength as number;
  if (posInt(raw.rows) !== undefined) d.rows = raw.rows as number;
  if (type === 'select' || type === 'chips' || type === 'chips-multi') d.options = optionsOf(raw.options);
  if (type === 'emoji-picker') {
    const emojis = Array.isArray(raw.emojis)
      ? raw.emojis.filter((e): e is string => typeof e === 'string' && e !== '')
      : [];
    d.emojis = emojis.length > 0 ? emojis : [...DEFAULT_MOOD_EMOJIS];
    if (raw.emitIndex === true) d.emitIndex = true;
    if (raw.autoSubmit === true) d.autoSubmit = true;
  }
  if (type === 'rating') {
    const min = d.min !== undefined && Number.isInteger(d.min) ? d.min : DEFAULT_RATING_MIN;
    let max =
      d.max !== undefined && Number.isInteger(d.max) && d.max >= min
        ? d.max
        : Math.max(min, DEFAULT_RATING_MAX);
    if (max - min + 1 > MAX_RATING_STEPS) max = min + MAX_RATING_STEPS - 1;
    d.min = min;
    d.max = max;
  }
  return d;
}

/**
 * The form inputs of a card's `meta`: `meta.writeable.inputs` when it is a list, else the legacy
 * `meta.view.inputs`; each normalised (`normaliseInput`), unusable ones dropped, and a key used
 * twice kept once (the first). [] when the card declares none.
 */
export function formInputs(meta: unknown): InputDescriptor[] {
  if (!isObject(meta)) return [];
  const w = meta.writeable;
  const v = meta.view;
  const list =
    isObject(w) && Array.isArray(w.inputs)
      ? w.inputs
      : isObject(v) && Array.isArray(v.inputs)
        ? v.inputs
        : [];
  const seen = new Set<string>();
  const out: InputDescriptor[] = [];
  for (const raw of list) {
    const d = normaliseInput(raw);
    if (d && !seen.has(d.key)) {
      seen.add(d.key);
      out.push(d);
    }
  }
  return out;
}

/**
 * Whether a form value counts as given (for `required` and `writeable.requireAny`): not
 * undefined/null, not a blank string, not an empty list, not NaN. `false` and `0` are values.
 */
export function hasValue(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** `writeable.requireAny` as a list of keys ([] when absent or malformed). */
export function requireAnyOf(meta: unknown): string[] {
  const w = isObject(meta) ? meta.writeable : undefined;
  const any = isObject(w) ? w.requireAny : undefined;
  return Array.isArray(any) ? any.filter((k): k is string => typeof k === 'string' && k !== '') : [];
}

/**
 * The inputs of a list that names them (a schedule card's `checkOffForm.currentDoseFields`): each
 * entry is an input of its own (`{key, type, ...}`) or the key of one of the card's form inputs
 * (`formInputs(meta)`), as older manifests write it. Keys the card does not declare are left out,
 * and a key is kept once.
 */
export function namedInputs(list: unknown, meta: unknown): InputDescriptor[] {
  if (!Array.isArray(list)) return [];
  const declared = formInputs(meta);
  const seen = new Set<string>();
  const out: InputDescriptor[] = [];
  for (const entry of list) {
    const d =
      typeof entry === 'string' ? declared.find((i) => i.key === entry.trim()) : normaliseInput(entry);
    if (d && !seen.has(d.key)) {
      seen.add(d.key);
      out.push(d);
    }
  }
  return out;
}
