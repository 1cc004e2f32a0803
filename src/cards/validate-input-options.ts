/**
 * Options of an input that no value could ever satisfy, or that the form would read as something
 * else than written (docs/MANIFEST-SCHEMA.md "Input types"): a `min` above its `max`, a `select`
 * with no options (which then took any value, though a value must be one of them), a `rating`
 * of more than MAX_RATING_STEPS steps (`max: 1000000` was cut to 10 without a word), a
 * `maxLength` below 1, a `min`, `max` or `step` that is not a number, a `default` the input could
 * not store, two inputs filling one key (the second was never shown). Creating or
 * patching such a card is refused (422 naming the field), for the REST routes, the chat tools and
 * MCP alike; a hand-written file with one still loads as written, the field listed in the load
 * errors (report only: these issues drop nothing).
 */
import { MAX_RATING_STEPS, normaliseInput, optionsOf } from '../common/inputs.js';
import { describeValue, formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';
import { valueProblem } from './write-policy.js';

/** Input types with a numeric range. */
const RANGED = new Set(['number', 'stepper', 'rating']);
/** Input types whose value is one (or a list) of `options`. */
const CHOICES = new Set(['select', 'chips', 'chips-multi']);

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A report-only issue at `where`: the card is refused on create and patch, loaded as it is. */
function note(where: Segment[], message: string): Issue {
  return { path: where, drops: [], message: `${formatPath(where)} ${message}` };
}

/**
 * `min`/`max` (and `step`) of a number, stepper or rating: numbers when given (a `"10"` was
 * ignored by the form without a word); a rating's whole steps, at most MAX_RATING_STEPS.
 */
function rangeIssues(input: Record<string, unknown>, at: Segment[]): Issue[] {
  const { min, max } = input;
  const out: Issue[] = [];
  for (const k of ['min', 'max', 'step'] as const) {
    const v = input[k];
    if (v !== undefined && !isNumber(v))
      out.push(note([...at, k], `must be a number, got ${describeValue(v)}`));
  }
  if (input.step !== undefined && isNumber(input.step) && input.step <= 0) {
    out.push(note([...at, 'step'], `must be above 0, got ${input.step}`));
  }
  if (out.length > 0) return out;
  if (input.type === 'rating') {
    for (const k of ['min', 'max'] as const) {
      const v = input[k];
      if (isNumber(v) && !Number.isInteger(v)) out.push(note([...at, k], `must be a whole number, got ${v}`));
    }
  }
  if (isNumber(min) && isNumber(max) && min > max) {
    out.push(note([...at, 'max'], `(${max}) is below min (${min}): no value could be entered`));
  } else if (input.type === 'rating' && out.length === 0) {
    const lo = isNumber(min) ? min : 1;
    const hi = isNumber(max) ? max : Math.max(lo, 5);
    if (hi - lo + 1 > MAX_RATING_STEPS) {
      out.push(
        note(
          [...at, isNumber(max) ? 'max' : 'min'],
          `makes ${hi - lo + 1} steps (${lo} to ${hi}); a rating has at most ${MAX_RATING_STEPS}`,
        ),
      );
    }
  }
  return out;
}

/** The choices of a select, chips or chips-multi: at least one, each usable, no value twice. */
function choiceIssues(input: Record<string, unknown>, at: Segment[]): Issue[] {
  const where = [...at, 'options'];
  const { options } = input;
  if (!Array.isArray(options) || options.length === 0) {
    return [
      note(
        where,
        `must list at least one choice (a value must be one of them), got ${describeValue(options)}`,
      ),
    ];
  }
  const out: Issue[] = [];
  const seen = new Map<string, number>();
  options.forEach((o, i) => {
    const [read] = optionsOf([o]);
    if (!read) {
      out.push(note([...where, i], `must be a string, a number or {value, label}, got ${describeValue(o)}`));
      return;
    }
    const key = JSON.stringify(read.value);
    const first = seen.get(key);
    if (first !== undefined) out.push(note([...where, i], `repeats the value ${key} of options[${first}]`));
    else seen.set(key, i);
  });
  return out;
}

/** `maxLength` (text, textarea) and `rows` (textarea), when given: whole numbers from 1. */
function countIssues(input: Record<string, unknown>, at: Segment[]): Issue[] {
  const out: Issue[] = [];
  for (const k of ['maxLength', 'rows'] as const) {
    const v = input[k];
    if (v === undefined) continue;
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= 1))
      out.push(note([...at, k], `must be a whole number of at least 1, got ${describeValue(v)}`));
  }
  return out;
}

/**
 * The options of one input (an object with a usable key and type, at `at`) that could never
 * work. Report-only issues (see the module comment).
 */
export function inputOptionIssues(input: Record<string, unknown>, at: Segment[]): Issue[] {
  const type = input.type;
  if (typeof type !== 'string') return [];
  const own = RANGED.has(type)
    ? rangeIssues(input, at)
    : CHOICES.has(type)
      ? choiceIssues(input, at)
      : type === 'text' || type === 'textarea'
        ? countIssues(input, at)
        : [];
  return own.length > 0 ? own : defaultIssues(input, at);
}

/**
 * A `default` the input could not store: the form would start from a value saving then refuses
 * (a `date` input's `default: 5`, a number outside `min`…`max`). Checked by the entry rules
 * themselves, once the input's own options are sound.
 */
function defaultIssues(input: Record<string, unknown>, at: Segment[]): Issue[] {
  if (input.default === undefined || input.default === null) return [];
  const descriptor = normaliseInput(input);
  const problem = descriptor ? valueProblem(descriptor, input.default) : null;
  return problem ? [note([...at, 'default'], `${problem}, got ${describeValue(input.default)}`)] : [];
}

/** The key an input fills: `key`, or the legacy `name` when `key` is absent. */
function keyOf(input: unknown): string | undefined {
  if (!isPlainObject(input)) return undefined;
  const k = input.key !== undefined ? input.key : input.name;
  return typeof k === 'string' ? k.trim() : undefined;
}

/** A second input filling a key an earlier one fills (the form shows only the first). */
export function duplicateKeyIssues(inputs: unknown[], at: Segment[]): Issue[] {
  const first = new Map<string, number>();
  const out: Issue[] = [];
  inputs.forEach((input, i) => {
    const key = keyOf(input);
    if (!key) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else {
      const field = isPlainObject(input) && input.key !== undefined ? 'key' : 'name';
      out.push(
        note(
          [...at, i, field],
          `repeats "${key}", the key of inputs[${earlier}]: each input fills its own field`,
        ),
      );
    }
  });
  return out;
}
