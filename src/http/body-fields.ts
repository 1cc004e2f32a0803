/**
 * Rules shared by the REST routes and the chat and MCP tools (a row's value, a feedback note, a
 * conversation's messages) name a field by where it is in what they were given: `value.date`,
 * `intent`, `messages[0].role`. A tool's arguments are that object, so the name is right there;
 * a request carries it as its JSON body (or its query), and docs/API.md "Errors" names every
 * field of a request behind the part it came in: `body.value.date`, `query.code`. `inBody` and
 * `inQuery` are where a route says so, once for all the checks it runs on that part.
 */
import { childPath } from '../common/field-path.js';
import { type FieldError, KlebbError } from '../errors.js';

/** A part of a request that fields are named under. */
type RequestPart = 'body' | 'query';

/** A field path that already names the part of the request it is in. */
const ROOTED = /^(?:body|query|params|headers)(?:[.[]|$)/;

/** The path of `field` (named within `part`) as a request names it; the whole part is `part`. */
export function requestPath(part: RequestPart, field: string): string {
  if (ROOTED.test(field)) return field;
  if (field === '' || field === '(value)') return part;
  return field.startsWith('[') ? `${part}${field}` : childPath(part, field);
}

/** `err` with each detail's path named under `part` (a KlebbError, kept as it is otherwise). */
function rooted(err: unknown, part: RequestPart): unknown {
  if (!(err instanceof KlebbError) || !err.details?.length) return err;
  const details: FieldError[] = err.details.map((d) => ({ ...d, path: requestPath(part, d.path) }));
  // the same error, its class and stack kept: only where its fields are named changes
  Object.defineProperty(err, 'details', { value: details });
  return err;
}

/** Runs `check` (synchronous or returning a promise), naming the fields it refuses under `part`. */
function namedIn<T>(part: RequestPart, check: () => T): T {
  let out: T;
  try {
    out = check();
  } catch (err) {
    throw rooted(err, part);
  }
  if (out instanceof Promise) {
    return out.catch((err: unknown) => {
      throw rooted(err, part);
    }) as T;
  }
  return out;
}

/**
 * Runs `check` on a request's JSON body, naming the fields of a refusal it throws under `body.`
 * (`intent` → `body.intent`); paths already naming their part (`headers.if-match`) stay.
 */
export function inBody<T>(check: () => T): T {
  return namedIn('body', check);
}

/** As inBody, for a check of the query string (`code` → `query.code`). */
export function inQuery<T>(check: () => T): T {
  return namedIn('query', check);
}
