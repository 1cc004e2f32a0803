/**
 * What a row written through the rows API (`append_row`, `POST /api/manifests/:id/rows`) has that
 * the card's own form would refuse: a value of the wrong type or out of its input's range, a date
 * not written YYYY-MM-DD. The registry imposes no schema on the data block (whatever is written
 * is read back), so these never refuse the write: they come back as `warnings` in the answer, so
 * a script or the model can correct the row.
 */
import { dayOfDateTime } from '../common/dates.js';
import { hasValue } from '../common/inputs.js';
import { isolateText } from '../common/isolate-text.js';
import { writePolicyOf } from '../common/write-policy.js';
import type { FieldError } from '../errors.js';
import { valueProblem } from './write-policy.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Warnings (`{path: "value.<field>", message}`) for `value` appended at the top of the data of a
 * card with `meta` (a card without form inputs, or a write below the top, gets none).
 */
export function rowWarnings(meta: unknown, topLevel: boolean, value: unknown): FieldError[] {
  if (!topLevel) return [];
  const policy = writePolicyOf(meta);
  if (policy.inputs.length === 0) return [];
  if (!isObject(value))
    return [
      { path: 'value', message: "is not an object with the card's fields, so the card cannot show it" },
    ];
  const out: FieldError[] = [];
  const dateInput = policy.inputs.find((i) => i.key === policy.dateField);
  if (policy.dated && Object.hasOwn(value, policy.dateField)) {
    const d = value[policy.dateField];
    if (dayOfDateTime(d) === null) {
      out.push({
        path: `value.${policy.dateField}`,
        message: `${isolateText(dateInput?.label ?? policy.dateField)} must be a real date written YYYY-MM-DD (got ${JSON.stringify(d)})`,
      });
    }
  }
  for (const input of policy.inputs) {
    if (input.key === policy.dateField) continue;
    const v = value[input.key];
    if (!hasValue(v)) {
      if (input.required && !policy.requireAny.includes(input.key))
        out.push({
          path: `value.${input.key}`,
          message: `${isolateText(input.label)} is required by the card's form`,
        });
      continue;
    }
    const p = valueProblem(input, v);
    if (p) out.push({ path: `value.${input.key}`, message: `${isolateText(input.label)} ${p}` });
  }
  return out;
}
