/**
 * Colour bands of a generic card (`meta.view.display.thresholds`, docs/MANIFEST-SCHEMA.md
 * "Thresholds"; docs/MANIFEST-SCHEMA.md "Thresholds"), and the same matching for the calendar's
 * `threshold` marker. Shared by the server and the browser: no Node imports.
 *
 * A rule is `{ifField (alias field), min?, max?, eq?, colour, label}`. It matches when the field is
 * present and `min <= v <= max` (inclusive, numeric, either end may be absent) or the value as
 * text equals `eq` as text (`eq: 1` and `eq: "1"` behave the same). A rule with none of min, max,
 * eq is a catch-all that matches any row. The first matching rule wins.
 */

import { getValue, isEmptyValue, templateFields, valueText } from './display-template.js';
import { cleanNumber, toFiniteNumber } from './numbers.js';

/** One threshold rule as written in a manifest (hand-written: every field may be off-type). */
export interface ThresholdRule {
  ifField?: unknown;
  /** Alias of `ifField`. */
  field?: unknown;
  min?: unknown;
  max?: unknown;
  eq?: unknown;
  colour?: unknown;
  /** American spelling, accepted like `colour`. */
  color?: unknown;
  label?: unknown;
}

/** The outcome for a card: the matching rule's colour and label, and its position in the list. */
export interface ThresholdMatch {
  colour: string;
  label: string;
  index: number;
}

/** Options of `evaluateThresholds`. */
export interface ThresholdOptions {
  /**
   * The field of rules with neither `ifField` nor `field` (legacy thresholds, as in the bp example).
   * Usually `primaryFieldOf(display)`.
   */
  primaryField?: string;
}

const present = (o: object, k: string): boolean =>
  Object.hasOwn(o, k) && (o as Record<string, unknown>)[k] !== undefined;

const nonEmptyString = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** True when a rule has none of `min`, `max`, `eq` (a catch-all "otherwise" rule). */
export function isCatchAll(rule: object): boolean {
  return !present(rule, 'min') && !present(rule, 'max') && !present(rule, 'eq');
}

/**
 * Whether `value` satisfies a rule's `min`/`max`/`eq` (docs/MANIFEST-SCHEMA.md "Thresholds"):
 * - a catch-all (no min, max, eq) matches anything, even a missing value;
 * - otherwise the value must be present (`isEmptyValue` false);
 * - range: the value as a number (a numeric string counts, `toFiniteNumber`) within
 *   `min <= v <= max`, both inclusive, either optional; both sides are cleaned of float artefacts
 *   first (0.7 + 0.1 reaches a `min` of 0.8). A `min`/`max` that is not a number makes the
 *   range fail (never a silent catch-all);
 * - eq: the value's text equals `eq`'s text (numbers written without artefacts, so `1`/`"1"`
 *   match), or both are numbers that are equal (`"4.0"` matches `4`);
 * - a rule with both a range and `eq` matches when either does.
 */
export function ruleMatches(rule: object, value: unknown): boolean {
  if (isCatchAll(rule)) return true;
  if (isEmptyValue(value)) return false;
  const r = rule as Record<string, unknown>;
  const hasMin = present(rule, 'min');
  const hasMax = present(rule, 'max');
  if (hasMin || hasMax) {
    const v = toFiniteNumber(value);
    const min = hasMin ? toFiniteNumber(r.min) : -Infinity;
    const max = hasMax ? toFiniteNumber(r.max) : Infinity;
    if (v !== null && min !== null && max !== null) {
      const cv = cleanNumber(v);
      if (cleanNumber(min) <= cv && cv <= cleanNumber(max)) return true;
    }
  }
  if (present(rule, 'eq')) {
    if (valueText(value) === valueText(r.eq)) return true;
    const a = toFiniteNumber(value);
    const b = toFiniteNumber(r.eq);
    if (a !== null && b !== null && cleanNumber(a) === cleanNumber(b)) return true;
  }
  return false;
}

/**
 * The field a rule reads: `ifField`, else `field`, else `primaryField`; undefined when none is a
 * non-empty string.
 */
export function ruleField(rule: ThresholdRule, primaryField?: string): string | undefined {
  return nonEmptyString(rule.ifField) ?? nonEmptyString(rule.field) ?? nonEmptyString(primaryField);
}

/**
 * The first rule of `rules` that matches `row`, as `{colour, label, index}`, or null (no row, no
 * rules, nothing matches). Each rule reads its own field (`ruleField`); a legacy rule without one
 * reads `opts.primaryField`, and with no field at all only a catch-all can match. Rules that are
 * not objects are skipped. `colour` falls back to `color`, then ''; `label` to ''.
 * docs/MANIFEST-SCHEMA.md "Thresholds": first match wins.
 */
export function evaluateThresholds(
  rules: unknown,
  row: Record<string, unknown> | undefined | null,
  opts: ThresholdOptions = {},
): ThresholdMatch | null {
  if (!Array.isArray(rules) || row === null || typeof row !== 'object') return null;
  for (let index = 0; index < rules.length; index++) {
    const rule: unknown = rules[index];
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) continue;
    const r = rule as ThresholdRule;
    const field = ruleField(r, opts.primaryField);
    if (field === undefined && !isCatchAll(r)) continue;
    const value = field === undefined ? undefined : getValue(row, field);
    if (!ruleMatches(r, value)) continue;
    const colour = nonEmptyString(r.colour) ?? nonEmptyString(r.color) ?? '';
    const label = typeof r.label === 'string' || typeof r.label === 'number' ? String(r.label) : '';
    return { colour, label, index };
  }
  return null;
}

/**
 * The card's primary field, read by legacy thresholds that name no field. From the bp example
 * (`display.primary: "latest.systolic"`, `format: "{systolic}/{diastolic}"`, thresholds max
 * 120/130/180 = systolic bands): `display.primary` with a leading `latest.` removed (the older
 * metric-card read paths from `{latest: row}`); else the first field of `display.template`, then of
 * `display.format`; else `display.trendArrow.field`. Undefined when none gives a field.
 */
export function primaryFieldOf(display: unknown): string | undefined {
  if (display === null || typeof display !== 'object') return undefined;
  const d = display as Record<string, unknown>;
  const primary = nonEmptyString(d.primary);
  if (primary) return primary.startsWith('latest.') ? primary.slice('latest.'.length) : primary;
  const fromTemplate = templateFields(d.template)[0] ?? templateFields(d.format)[0];
  if (fromTemplate) return fromTemplate;
  const arrow = d.trendArrow;
  return arrow !== null && typeof arrow === 'object'
    ? nonEmptyString((arrow as Record<string, unknown>).field)
    : undefined;
}
