/**
 * How route schemas are checked (Ajv, through Fastify's own compiler):
 * - bodies are never coerced: `"5"` stays a string and is refused where a number is needed;
 * - the query string and path parameters are text by nature, so a schema that asks for an
 *   integer or a boolean there gets `"10"` as 10 (Ajv's `coerceTypes`), and `"ten"` is refused.
 *   This lets one TypeBox schema serve a REST query and a chat tool's arguments alike;
 * - every problem is reported (`allErrors`), each with the schema node it broke (`verbose`), so
 *   the error handler can name the field and use a schema's own `errorMessage` wording;
 * - a body schema wrapped in `Type.Optional` may be left out: an absent body (a DELETE sent
 *   without one) is not checked, one that is sent is.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { OptionalKind } from '@sinclair/typebox';

/** Ajv options shared by both compilers (Fastify's defaults otherwise). */
const BASE = {
  removeAdditional: false,
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

/** Fastify's `schemaController.compilersFactory.buildValidator`: no coercion for bodies, text coercion elsewhere. */
export function buildValidator(externalSchemas: Parameters<Pool>[0]): ReturnType<Pool> {
  const body = factory(externalSchemas, {
    customOptions: { ...BASE, keywords: [...BASE.keywords], coerceTypes: false },
  });
  const text = factory(externalSchemas, {
    customOptions: { ...BASE, keywords: [...BASE.keywords], coerceTypes: true },
  });
  return (route) => {
    if (route.httpPart !== 'body') return text(route);
    const check = body(route);
    const schema = route.schema as Record<PropertyKey, unknown> | undefined;
    if (!schema || !(OptionalKind in schema)) return check;
    // a request without a body reaches the validator as null (or undefined)
    const optional = ((data: unknown) => data === undefined || data === null || check(data)) as typeof check;
    Object.defineProperty(optional, 'errors', { get: () => check.errors });
    return optional;
  };
}
