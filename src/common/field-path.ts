/**
 * The one way a field is named in an error's `details[].path` (docs/API.md "Errors"): dotted
 * keys, array indexes in brackets, behind the part of the request it came from (`body`, `query`,
 * `params`, `headers`): `body.entry.items[0].kg`, `query.from`. Every refusal of a request's
 * input builds its path here, so the schema check, the JSON checks and the routes' own checks
 * name the same field the same way.
 */

/** One step into a value: an object key or an array index. */
export type PathStep = string | number;

/** `parent` extended by one step: `a` + `b` → `a.b`, `a` + 0 → `a[0]`, `` + `b` → `b`. */
export function childPath(parent: string, step: PathStep): string {
  if (typeof step === 'number') return `${parent}[${step}]`;
  return parent ? `${parent}.${step}` : step;
}

/** The path of `steps` under `root`: fieldPath('body', ['entry', 'kg']) → `body.entry.kg`. */
export function fieldPath(root: string, steps: readonly PathStep[]): string {
  let out = root;
  for (const s of steps) out = childPath(out, s);
  return out;
}

/** A JSON-pointer location (`/entry/items/0/kg`, Ajv's instancePath) as steps. */
export function pointerSteps(pointer: string): PathStep[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
