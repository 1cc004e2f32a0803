/**
 * `meta.writeable` (docs/MANIFEST-SCHEMA.md "writeable" table): the write policy and input form.
 */
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
 * strings; `inputs` per `checkInputs`. Lenient drops: a non-object block whole, else each bad key
 * (or each bad input).
 */
export function checkWriteable(value: unknown, at: Segment[]): Issue[] {
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
  }
  issues.push(...checkInputs(value.inputs, [...at, 'inputs']));
  return issues;
}
