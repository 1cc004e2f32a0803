/**
 * The parameter schema as the model is sent it: the same JSON Schema, spelled shorter. Every
 * request carries all tool definitions, so bytes here are paid on every round-trip; the server
 * still checks arguments against the full schema (src/chat/tools/registry.ts), so nothing a model
 * sends is let through by this.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * Input: a JSON Schema (plain JSON, as TypeBox builds it). Output: an equivalent schema with
 * - a union of literals of one type (`anyOf: [{const, type}, …]`) written as `{type, enum}`;
 * - `maximum: Number.MAX_SAFE_INTEGER` left out (it bounds nothing a model would send).
 * Anything else is kept as it is, recursively. An empty `properties: {}` stays: some endpoints
 * refuse an object schema without one.
 */
export function modelSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(modelSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = modelSchema(value);
  }
  return literalUnionAsEnum(out);
}

/** `{anyOf: [{const: 'a', type: 'string'}, {const: 'b', type: 'string'}]}` → `{type: 'string', enum: ['a', 'b']}`. */
function literalUnionAsEnum(schema: JsonObject): JsonObject {
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length === 0) return schema;
  const type = literalType(members[0]);
  if (type === undefined || !members.every((m) => literalType(m) === type)) return schema;
  const { anyOf: _, ...rest } = schema;
  return { ...rest, type, enum: members.map((m) => (m as JsonObject).const) };
}

/** The `type` of a schema that is only `{const, type}`, else undefined. */
function literalType(member: Json): string | undefined {
  if (member === null || typeof member !== 'object' || Array.isArray(member)) return undefined;
  const keys = Object.keys(member);
  if (keys.length !== 2 || !('const' in member) || typeof member.type !== 'string') return undefined;
  return member.type;
}
