/**
 * How route schemas are checked (Ajv, through Fastify's own compiler):
 * - bodies are never coerced: `"5"` stays a string and is refused where a number is needed;
 * - the query string, path parameters and headers are text by nature, so a schema that asks for
 *   an integer or a boolean there gets `"10"` as 10 and `"true"` as true, read by one strict
 *   grammar (src/http/url-numbers.ts): `"ten"`, `"0x1"`, `"1e3"` or `" "` are refused naming the
 *   parameter, never read as some other number (Ajv's `coerceTypes` would). This lets one
 *   TypeBox schema serve a REST query and a chat tool's arguments alike;
 * - every problem is reported (`allErrors`), each with the schema node it broke (`verbose`), so
 *   the error handler can name the field and use a schema's own `errorMessage` wording;
 * - a body schema wrapped in `Type.Optional` may be left out: an absent body (a DELETE sent
 *   without one) is not checked, one that is sent is.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { OptionalKind } from '@sinclair/typebox';
import { urlValueReader } from './url-numbers.js';

/** Ajv options of every compiler (Fastify's defaults otherwise): no type is ever coerced. */
const BASE = {
  removeAdditional: false,
  coerceTypes: false,
  allErrors: true,
  verbose: true,
  // a schema may say how its refusal reads for people (see src/http/error-handler.ts)
  keywords: ['errorMessage'],
} as const;

type Pool = AjvCompiler.BuildCompilerFromPool;

/**
 * One pool of Ajv instances for the process, keyed by the shared schemas and the options. Fastify
 * asks for a validator compiler again for every route declared after a shared schema was added
 * (the OpenAPI Error component): a pool made per call would build two new Ajv instances per route,
 * each compiling the JSON Schema meta-schema anew and kept alive by that route's checks (about
 * 70 MB allocated at start-up and tens of MB held for the life of the process).
 */
const factory = AjvCompiler();

type Validator = ReturnType<ReturnType<Pool>>;

let compiled = 0;

/**
 * How many route checks have been compiled so far in this process. The compilation leaves
 * garbage on the heap; src/http/memory-release.ts collects it once the server is quiet again.
 */
export function checksCompiled(): number {
  return compiled;
}

/**
 * A route's check, compiled by `compile` on its first call rather than when the server starts.
 * Compiling every route's schemas at start-up (Ajv writes and compiles a function per schema, and
 * keeps it) held memory in an idle server for routes it may never be asked; a route pays the
 * compilation (a millisecond or so) on its first request instead. `errors` reads the compiled
 * check's, which is where Fastify looks after a refusal.
 */
function compiledOnFirstUse(compile: () => Validator): Validator {
  let check: Validator | undefined;
  const lazy = ((data: unknown) => {
    if (!check) {
      check = compile();
      compiled++;
    }
    return check(data);
  }) as Validator;
  Object.defineProperty(lazy, 'errors', { get: () => check?.errors });
  return lazy;
}

/** A check of URL text: its numbers and booleans read by the strict grammar first, then checked. */
function readingUrlText(check: Validator, schema: unknown): Validator {
  const read = urlValueReader(schema);
  if (!read) return check;
  const reading = ((data: unknown) => {
    read(data);
    return check(data);
  }) as Validator;
  Object.defineProperty(reading, 'errors', { get: () => check.errors });
  return reading;
}

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: bodies are checked as sent, URL
 * and header text after its numbers are read (readingUrlText). The Ajv instance and each route's
 * check are made at first use.
 */
export function buildValidator(externalSchemas: Parameters<Pool>[0]): ReturnType<Pool> {
  let ajv: ReturnType<Pool> | undefined;
  const compiler = () =>
    (ajv ??= factory(externalSchemas, { customOptions: { ...BASE, keywords: [...BASE.keywords] } }));
  return (route) => {
    const check = compiledOnFirstUse(() => compiler()(route));
    if (route.httpPart !== 'body') return readingUrlText(check, route.schema);
    const schema = route.schema as Record<PropertyKey, unknown> | undefined;
    if (!schema || !(OptionalKind in schema)) return check;
    // a request without a body reaches the validator as null (or undefined)
    const optional = ((data: unknown) => data === undefined || data === null || check(data)) as typeof check;
    Object.defineProperty(optional, 'errors', { get: () => check.errors });
    return optional;
  };
}
