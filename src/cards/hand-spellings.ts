/**
 * What a person writes by hand in a manifest file, read as what it means before the lenient load
 * checks it (docs/MANIFEST-SCHEMA.md "Hand-written spellings"). Only values with exactly one
 * reading are rewritten, and only in the loader's copy (the file is never changed): `null` for
 * "not set", `"true"`/`"false"` and whole numbers written as text, another letter case of a
 * keyword, a `display` written as its template, a bare `cadence` or `ingest`. Anything else is left
 * for the rules to judge, which drop it and say why.
 */
import { labelFromKey } from '../common/inputs.js';
import { primaryFieldOf } from '../common/thresholds.js';
import { isNonEmptyString, isPlainObject } from './field-issues.js';
import { readNotificationSpellings } from './hand-spellings-notifications.js';
import { asBoolean, asKeyword, asNumber, asWholeNumber, reread } from './hand-values.js';
import { VIEW_CONFIG_KEYS } from './validate-views.js';
import { WRITEABLE_BOOLEAN_KEYS } from './validate-writeable.js';

/**
 * Removes every object key whose value is `null`, at any depth (not `null` items of a list): a
 * key set to null is a key not set.
 */
function dropNullKeys(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropNullKeys(item);
    return;
  }
  if (!isPlainObject(node)) return;
  for (const key of Object.keys(node)) {
    if (node[key] === null) delete node[key];
    else dropNullKeys(node[key]);
  }
}

/** Other names people give the input types, for the one the form draws. */
const INPUT_TYPE_NAMES: Record<string, string> = {
  integer: 'number',
  int: 'number',
  float: 'number',
  decimal: 'number',
  numeric: 'number',
  slider: 'number',
  range: 'number',
  string: 'text',
  boolean: 'checkbox',
  bool: 'checkbox',
  toggle: 'checkbox',
  switch: 'checkbox',
  dropdown: 'select',
  emoji: 'emoji-picker',
  multiselect: 'chips-multi',
  'multi-select': 'chips-multi',
};

/** Input types whose value is a number: their bounds, step and default are numbers. */
const NUMBER_INPUTS = new Set(['number', 'stepper', 'rating']);

function readInputs(inputs: unknown): void {
  if (!Array.isArray(inputs)) return;
  for (const input of inputs) {
    if (!isPlainObject(input) || typeof input.type !== 'string') continue;
    const type = asKeyword(input.type) as string;
    input.type = INPUT_TYPE_NAMES[type] ?? type;
    // a whole-number type keeps whole steps
    if ((type === 'integer' || type === 'int') && input.step === undefined) input.step = 1;
    readInputValues(input);
  }
}

/**
 * An input's settings written as text (`"min": "60"`, `"step": "0.1"`, `"required": "true"`,
 * `"rows": "4"`, an emoji picker's `"autoSubmit": "true"`, a checkbox's `"default": "false"`):
 * the form and the entry check read only numbers and booleans there, so a bound written as text
 * let any value in and a required field be left empty.
 */
function readInputValues(input: Record<string, unknown>): void {
  for (const key of ['required', 'emitIndex', 'autoSubmit']) reread(input, key, asBoolean);
  reread(input, 'maxLength', asWholeNumber);
  reread(input, 'rows', asWholeNumber);
  if (input.type === 'checkbox') reread(input, 'default', asBoolean);
  if (!NUMBER_INPUTS.has(input.type as string)) return;
  for (const key of ['min', 'max', 'step', 'default']) reread(input, key, asNumber);
}

/**
 * A display's short forms: `trendArrow` as the field's name, or `true` for the headline's field
 * (`false`: no arrow); `thresholds` as one rule instead of a list.
 */
function readDisplay(display: Record<string, unknown>): void {
  const arrow = display.trendArrow;
  if (typeof arrow === 'string' && arrow.trim() !== '') display.trendArrow = { field: arrow.trim() };
  else if (arrow === false) delete display.trendArrow;
  else if (arrow === true) {
    const field = primaryFieldOf(display);
    if (field) display.trendArrow = { field };
    else delete display.trendArrow;
  }
  if (isPlainObject(display.thresholds)) display.thresholds = [display.thresholds];
}

function readViewConfigs(meta: Record<string, unknown>): void {
  for (const key of VIEW_CONFIG_KEYS) {
    const config = meta[key];
    if (!isPlainObject(config)) continue;
    reread(config, 'enabled', asBoolean);
    reread(config, 'order', asWholeNumber);
    // a display written as its template text
    if (typeof config.display === 'string') config.display = { template: config.display };
    if (isPlainObject(config.display)) readDisplay(config.display);
    // one source written without its list
    if (isPlainObject(config.combines)) config.combines = [config.combines];
    if (key === 'view') readInputs(config.inputs);
  }
}

function readWriteable(w: unknown): void {
  if (!isPlainObject(w)) return;
  for (const key of WRITEABLE_BOOLEAN_KEYS) reread(w, key, asBoolean);
  reread(w, 'maxReadingsPerDay', asWholeNumber);
  if (typeof w.requireAny === 'string') w.requireAny = [w.requireAny];
  readInputs(w.inputs);
}

/** `{expectDays: 7}` also written `7`, `"7"`, `{expectDays: "7"}`, `{expect_days: 7}`, `"daily"`, `"weekly"`. */
function readCadence(meta: Record<string, unknown>): void {
  const words: Record<string, number> = { daily: 1, weekly: 7 };
  let c = meta.cadence;
  if (c === undefined) return;
  const word = typeof c === 'string' ? words[c.trim().toLowerCase()] : undefined;
  if (word !== undefined) c = word;
  c = asWholeNumber(c);
  if (typeof c === 'number') c = { expectDays: c };
  if (isPlainObject(c)) {
    if (c.expectDays === undefined && c.expect_days !== undefined) {
      c.expectDays = c.expect_days;
      delete c.expect_days;
    }
    reread(c, 'expectDays', asWholeNumber);
  }
  meta.cadence = c;
}

/** Health Auto Export, the only source, however it is spelt: `HAE`, `health-auto-export`, `Health Auto Export`. */
function isHaeName(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const t = v.toLowerCase().replace(/[\s_-]+/g, '');
  return t === 'hae' || t === 'healthautoexport';
}

/** `{source: "hae", metric}` also written as the metric alone, or without `source`. */
function readIngest(meta: Record<string, unknown>): void {
  const i = meta.ingest;
  if (typeof i === 'string' && i.trim() !== '') meta.ingest = { source: 'hae', metric: i.trim() };
  else if (isPlainObject(i)) {
    if (i.source === undefined && typeof i.metric === 'string') i.source = 'hae';
    else if (isHaeName(i.source)) i.source = 'hae';
  }
}

/**
 * Rewrites, in place, the hand-written spellings of `manifest` (a copy the loader owns) into the
 * ones the rules and renderers read. `data` is not touched.
 */
export function readHandSpellings(manifest: Record<string, unknown>): void {
  const meta = manifest.meta;
  if (!isPlainObject(meta)) return;
  dropNullKeys(meta);
  if (manifest.description === null) delete manifest.description;
  // a card without a title is titled after its id, as an input without a label is after its key
  if (!isNonEmptyString(meta.label) && typeof meta.id === 'string' && isNonEmptyString(meta.id))
    meta.label = labelFromKey(meta.id);
  reread(meta, 'enabled', asBoolean);
  reread(meta, 'order', asWholeNumber);
  reread(meta, 'category', asKeyword);
  readViewConfigs(meta);
  readWriteable(meta.writeable);
  readCadence(meta);
  readIngest(meta);
  readNotificationSpellings(meta);
}
