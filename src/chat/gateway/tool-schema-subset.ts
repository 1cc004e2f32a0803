/**
 * Tool parameter schemas in the subset of JSON Schema Gemini takes (its Schema object, after
 * OpenAPI 3.0): Gemini's API, behind the relays that translate OpenAI requests to it, refuses a
 * request whose tool schemas use any other keyword ('Unknown name "additionalProperties" at
 * 'tools[0].function_declarations[3].parameters…': Cannot find field'). Keywords outside the
 * subset are left out, a `const` becomes a one-value `enum` and a list of types one type marked
 * `nullable`; names under `properties` are property names, kept whatever they are.
 */

type JsonObject = Record<string, unknown>;

/** The keywords of the subset. */
const SUBSET = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
  'propertyOrdering',
]);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON Schema type of a constant. */
function typeOf(v: unknown): string | undefined {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return undefined;
}

/** `schema` with only the subset's keywords (see the top of this file). */
export function schemaInSubset(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, schemaInSubset(s)]),
      );
    } else if (key === 'items') out.items = schemaInSubset(value);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.map(schemaInSubset);
    else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length > 0) out.type = types[0];
      if (types.length < value.length) out.nullable = true;
    } else if (SUBSET.has(key)) out[key] = value;
  }
  if ('const' in schema && !('enum' in schema)) {
    out.enum = [schema.const];
    const type = typeOf(schema.const);
    if (out.type === undefined && type !== undefined) out.type = type;
  }
  return out;
}

/** True when `schema` uses a keyword outside the subset anywhere. */
export function outsideSubset(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) {
      if (Object.values(value).some(outsideSubset)) return true;
    } else if (key === 'items') {
      if (outsideSubset(value)) return true;
    } else if (key === 'anyOf' && Array.isArray(value)) {
      if (value.some(outsideSubset)) return true;
    } else if (!SUBSET.has(key) || (key === 'type' && Array.isArray(value))) return true;
  }
  return false;
}
