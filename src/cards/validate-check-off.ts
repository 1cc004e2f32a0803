/**
 * A schedule card's `checkOffForm` (docs/MANIFEST-SCHEMA.md "View config"): what each tick of a
 * dose asks for and shows. Its shape is checked, so a form that could never be drawn is refused
 * on create and patch (422 naming the field) and dropped at load, instead of a tick that opens
 * an empty or broken form:
 *
 * - `checkOffForm` is an object;
 * - `currentDoseFields` is a list whose entries are inputs (`{key, type, ...}`, the rules of the
 *   card's form inputs) or the key of one of the card's form inputs (a non-empty text);
 * - `previousDoseFields` is a list of field keys (non-empty texts);
 * - `previousDosePrompt` and `currentDosePrompt` are texts.
 */
import {
  describeValue,
  formatPath,
  type Issue,
  isNonEmptyString,
  isPlainObject,
  type Segment,
} from './field-issues.js';
import { checkInput } from './validate-inputs.js';

const PROMPTS = ['previousDosePrompt', 'currentDosePrompt'] as const;

/** An issue at `where` that drops `drops` at load. */
const issue = (where: Segment[], drops: Segment[], message: string): Issue => ({
  path: where,
  drops: [drops],
  message: `${formatPath(where)} ${message}`,
});

/** `list` at `at` is an array of the entries `entry` accepts (each bad entry dropped at load). */
function listIssues(list: unknown, at: Segment[], entry: (v: unknown, i: Segment[]) => Issue[]): Issue[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [issue(at, at, `must be a list, got ${describeValue(list)}`)];
  return list.flatMap((v, i) => entry(v, [...at, i]));
}

function keyIssues(v: unknown, at: Segment[]): Issue[] {
  return isNonEmptyString(v) ? [] : [issue(at, at, `must be the key of a field, got ${describeValue(v)}`)];
}

function doseFieldIssues(v: unknown, at: Segment[]): Issue[] {
  if (typeof v === 'string') return keyIssues(v, at);
  if (isPlainObject(v)) return checkInput(v, at);
  return [
    issue(
      at,
      at,
      `must be an input ({"key", "type", ...}) or the key of one of the card's inputs, got ${describeValue(v)}`,
    ),
  ];
}

/** Strict checks of `config.checkOffForm` when present (`at` is the path of the view config). */
export function checkOffFormIssues(config: Record<string, unknown>, at: Segment[]): Issue[] {
  const form = config.checkOffForm;
  if (form === undefined) return [];
  const where = [...at, 'checkOffForm'];
  if (!isPlainObject(form)) return [issue(where, where, `must be an object, got ${describeValue(form)}`)];
  const issues = [
    ...listIssues(form.currentDoseFields, [...where, 'currentDoseFields'], doseFieldIssues),
    ...listIssues(form.previousDoseFields, [...where, 'previousDoseFields'], keyIssues),
  ];
  for (const key of PROMPTS) {
    const v = form[key];
    if (v !== undefined && typeof v !== 'string')
      issues.push(issue([...where, key], [...where, key], `must be a text, got ${describeValue(v)}`));
  }
  return issues;
}
