/**
 * Input descriptors: `meta.writeable.inputs[]` and the legacy `meta.view.inputs[]` (docs/MANIFEST-SCHEMA.md
 * "Input types"; the legacy shape keys inputs by `name`). The key and the type are checked (a bad
 * one, or a key that names an object's prototype, `__proto__`, drops the input at load); so are the options no value could satisfy and a key filled twice
 * (validate-input-options.ts: refused on create and patch, reported at load); other options pass
 * through.
 */
import { isPrototypeName } from '../common/json-guard.js';
import {
  describeValue,
  formatPath,
  type Issue,
  isNonEmptyString,
  isPlainObject,
  type Segment,
} from './field-issues.js';
import { duplicateKeyIssues, inputOptionIssues } from './validate-input-options.js';

/**
 * Input types the renderers know (docs/MANIFEST-SCHEMA.md table, plus `chips` / `chips-multi`, the
 * tap-to-pick inputs the web app renders). An unknown type is invalid on create/patch and the
 * input is dropped at load.
 */
export const INPUT_TYPES = [
  'number',
  'stepper',
  'text',
  'textarea',
  'select',
  'emoji-picker',
  'colour',
  'color',
  'checkbox',
  'date',
  'time',
  'rating',
  'chips',
  'chips-multi',
] as const;

/** One of `INPUT_TYPES`. */
export type InputType = (typeof INPUT_TYPES)[number];

/** True when `t` is one of `INPUT_TYPES`. */
export function isInputType(t: unknown): t is InputType {
  return typeof t === 'string' && (INPUT_TYPES as readonly string[]).includes(t);
}

/**
 * Strict check of one input descriptor at `at`: an object with a non-empty `key` (or, legacy,
 * `name`), a known `type` and options that can work. Lenient drop: the input.
 */
export function checkInput(input: unknown, at: Segment[]): Issue[] {
  const issue = (where: Segment[], message: string): Issue => ({ path: where, drops: [at], message });
  if (!isPlainObject(input))
    return [issue(at, `${formatPath(at)} must be an object, got ${describeValue(input)}`)];
  const issues: Issue[] = [];
  const field = input.key !== undefined || input.name === undefined ? 'key' : 'name';
  const key = input[field];
  if (!isNonEmptyString(key)) {
    issues.push(
      issue(
        [...at, field],
        `${formatPath(at)}.${field} must be a non-empty string, got ${describeValue(key)}`,
      ),
    );
  } else if (isPrototypeName(key.trim())) {
    issues.push(
      issue(
        [...at, field],
        `${formatPath(at)}.${field} must not be "${key.trim()}": it names an object's prototype, not a field`,
      ),
    );
  }
  if (!isInputType(input.type)) {
    issues.push(
      issue(
        [...at, 'type'],
        `${formatPath(at)}.type must be a known input type (${INPUT_TYPES.join(', ')}), got ${describeValue(input.type)}`,
      ),
    );
  }
  return issues.length > 0 ? issues : inputOptionIssues(input, at);
}

/**
 * Strict check of an `inputs` list when present (`at` is its path): an array of objects, each with
 * a non-empty string `key` (or, legacy, `name` when `key` is absent) and a known `type`, options
 * that can work, and no key twice. Lenient drops: a non-array list whole; each input with a bad
 * key or type (the option and duplicate issues drop nothing).
 */
export function checkInputs(value: unknown, at: Segment[]): Issue[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    return [
      { path: at, drops: [at], message: `${formatPath(at)} must be an array, got ${describeValue(value)}` },
    ];
  }
  return [...value.flatMap((input, i) => checkInput(input, [...at, i])), ...duplicateKeyIssues(value, at)];
}
