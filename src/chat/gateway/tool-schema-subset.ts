/**
 * Tool parameter schemas in the subset of JSON Schema Gemini takes (its Schema object, after
 * OpenAPI 3.0): Gemini's API, behind the relays that translate OpenAI requests to it, refuses a
 * request whose tool schemas use any other keyword ('Unknown name "additionalProperties" at
 * 'tools[0].function_declarations[3].parameters…': Cannot find field'). Keywords outside the
 * subset are left out, a `const` becomes a one-value `enum` and a list of types one type marked
 * `nullable`; names under `properties` are property names, kept whatever they are.
 * Gemini also refuses an object's keywords where they do not fit: an empty `properties`
 * ("properties: should be non-empty for OBJECT type": an object open to any keys, such as a
 * merge patch, or a tool without arguments, is sent as a bare `{type: "object"}`), `properties`,
 * `required` and the like on a type that is not an object ("only allowed for OBJECT type"), and a
 * `required` name its `properties` do not define; those are left out too.
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

/** Keywords Gemini takes on an object only. */
const OBJECT_ONLY = ['properties', 'required', 'minProperties', 'maxProperties', 'propertyOrdering'];

/** The names `schema.properties` defines (none when it has no properties object). */
function propertyNames(schema: JsonObject): string[] {
  return isObject(schema.properties) ? Object.keys(schema.properties) : [];
}

/** True when the object keywords of one schema node are ones Gemini refuses (see the top). */
function misplacedObjectKeywords(schema: JsonObject): boolean {
  const type = schema.type;
  if (typeof type === 'string' && type !== 'object' && OBJECT_ONLY.some((k) => k in schema)) return true;
  if ('properties' in schema && propertyNames(schema).length === 0) return true;
  const names = propertyNames(schema);
  return Array.isArray(schema.required) && schema.required.some((n) => !names.includes(n as string));
}

/** `out` without the object keywords Gemini would refuse on it. */
function fitObjectKeywords(out: JsonObject): JsonObject {
  if (typeof out.type === 'string' && out.type !== 'object') for (const k of OBJECT_ONLY) delete out[k];
  if ('properties' in out && propertyNames(out).length === 0) delete out.properties;
  if (Array.isArray(out.required)) {
    const names = propertyNames(out);
    const required = out.required.filter((n) => names.includes(n as string));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
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
  return fitObjectKeywords(out);
}

/** True when `schema` uses a keyword outside the subset anywhere, or one where Gemini refuses it. */
export function outsideSubset(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if (misplacedObjectKeywords(schema)) return true;
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
