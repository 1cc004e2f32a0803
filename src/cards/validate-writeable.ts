/**
 * `meta.writeable` (docs/MANIFEST-SCHEMA.md "writeable" table): the write policy and input form.
 */

import { formInputs } from '../common/inputs.js';
import { isPrototypeName } from '../common/json-guard.js';
import {
  describeValue,
  formatPath,
  type Issue,
  isNonEmptyString,
  isPlainObject,
  type Segment,
} from './field-issues.js';
import { checkInputs } from './validate-inputs.js';

/** The `writeable` flags that are booleans (docs/MANIFEST-SCHEMA.md "`writeable` and input types"). */
export const WRITEABLE_BOOLEAN_KEYS = [
  'fromWebapp',
  'todayAllowed',
  'pastAllowed',
  'futureAllowed',
  'prefillFromLatest',
] as const;

/**
 * Strict check of `meta.writeable` when present (`at` is its path): an object; the boolean flags
 * are booleans; `maxReadingsPerDay` a positive integer; `requireAny` an array of non-empty
 * strings naming keys the form's inputs fill (`meta`: the card's meta, whose form inputs they are);
 * `inputs` per `checkInputs`. Lenient drops: a non-object block whole, else each bad key
 * (or each bad input).
 */
export function checkWriteable(value: unknown, at: Segment[], meta: unknown = { writeable: value }): Issue[] {
  if (value === undefined) return [];
  const bad = (where: Segment[], detail: string): Issue => ({
    path: where,
    drops: [where],
    message: `${formatPath(where)} ${detail}`,
  });
  if (!isPlainObject(value)) return [bad(at, `must be an object, got ${describeValue(value)}`)];
  const issues: Issue[] = [];
  for (const key of WRITEABLE_BOOLEAN_KEYS) {
    const v = value[key];
    if (v !== undefined && typeof v !== 'boolean')
      issues.push(bad([...at, key], `must be a boolean, got ${describeValue(v)}`));
  }
  const max = value.maxReadingsPerDay;
  if (max !== undefined && !(typeof max === 'number' && Number.isInteger(max) && max >= 1)) {
    issues.push(bad([...at, 'maxReadingsPerDay'], `must be a positive integer, got ${describeValue(max)}`));
  }
  const any = value.requireAny;
  if (any !== undefined && !(Array.isArray(any) && any.every(isNonEmptyString))) {
    issues.push(bad([...at, 'requireAny'], `must be an array of input keys, got ${describeValue(any)}`));
  } else if (Array.isArray(any)) {
    const i = any.findIndex((k) => isPrototypeName(String(k).trim()));
    if (i >= 0)
      issues.push(bad([...at, 'requireAny', i], `must not be "${any[i]}": it names an object's prototype`));
    else issues.push(...unfilledRequireAny(any, meta, [...at, 'requireAny']));
  }
  issues.push(...checkInputs(value.inputs, [...at, 'inputs']));
  return issues;
}

/**
 * One issue per key of `requireAny` that no input of the card's form fills (`formInputs`: the
 * writeable inputs, or the older `view.inputs`): the form could only be saved through the other
 * keys, or never. Lenient load drops `requireAny` when none of its keys can be filled (the form
 * could never be saved); else it is reported and kept.
 */
function unfilledRequireAny(any: string[], meta: unknown, at: Segment[]): Issue[] {
  const keys = new Set(formInputs(meta).map((i) => i.key));
  const missing = any.filter((k) => !keys.has(k));
  const drops = missing.length === any.length ? [at] : [];
  const filled = keys.size > 0 ? `its inputs fill ${[...keys].join(', ')}` : 'the card has no inputs';
  return missing.map((k) => ({
    path: [...at, any.indexOf(k)],
    drops,
    message: `${formatPath(at)} names "${k}", which no input of the form fills (${filled})`,
  }));
}
