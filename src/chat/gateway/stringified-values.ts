/**
 * A call whose object or list argument came as JSON text: `{"id": "water", "row": "{\"ml\": 250}"}`
 * (vLLM's tool parsers when the schema uses `$defs`/`$ref`, models that serialise each value on
 * their own). The tool refused the string where its schema wants an object, and the model was
 * told its arguments were invalid. A top-level argument the tool's schema declares as an object
 * or a list, or leaves open to any value (a card's row), sent as text that is exactly such a
 * JSON value, is read as that value.
 */
import { rewriteCallArguments } from './argument-rewrite.js';
import { pythonLiteralAsJson } from './python-literal.js';
import type { GatewayResult, ToolDefinition } from './types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keywords that say what kind of value a schema takes; a schema with none of them takes any. */
const CONSTRAINTS = ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'properties', 'items', '$ref'];

/** The JSON kinds ('object', 'array') a property schema allows, from `type` or its `anyOf`/`oneOf` branches. */
function structuredKinds(schema: unknown): Set<string> {
  const kinds = new Set<string>();
  if (!isObject(schema)) return kinds;
  // an argument of any kind (`{}`, a row of a card): JSON text of an object or a list is that
  // value, as models that write every value as text (tag-style call markup) mean it
  if (!CONSTRAINTS.some((k) => k in schema)) return new Set(['object', 'array']);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const t of types) if (t === 'object' || t === 'array') kinds.add(t);
  if (schema.type === undefined && isObject(schema.properties)) kinds.add('object');
  if (schema.type === undefined && schema.items !== undefined) kinds.add('array');
  if (types.includes('string')) return new Set(); // text is a value the tool takes as it is
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const inner = branches.map(structuredKinds);
    if (
      branches.some(
        (b) => isObject(b) && (b.type === 'string' || (Array.isArray(b.type) && b.type.includes('string'))),
      )
    )
      return new Set();
    for (const k of inner) for (const kind of k) kinds.add(kind);
  }
  return kinds;
}

/** `text` read as the JSON object or list it is exactly, when its kind is among `kinds`. */
function structuredValue(text: string, kinds: Set<string>): unknown {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return undefined;
  let value: unknown;
  try {
    // JSON, or the same in Python's literal syntax ({'theme': 'dark'}, ['a', 'b'], True)
    value = JSON.parse(pythonLiteralAsJson(t) ?? t);
  } catch {
    return undefined;
  }
  const kind = Array.isArray(value) ? 'array' : isObject(value) ? 'object' : undefined;
  return kind !== undefined && kinds.has(kind) ? value : undefined;
}

/**
 * `args` with each top-level argument `tool` declares as an object or list and received as JSON
 * text of one read as that value; undefined when none was.
 */
export function parsedStringValues(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const params = tool.function.parameters;
  if (!isObject(params) || !isObject(params.properties)) return undefined;
  const properties = params.properties;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || !Object.hasOwn(properties, key)) continue;
    const kinds = structuredKinds(properties[key]);
    if (kinds.size === 0) continue;
    const read = structuredValue(value, kinds);
    if (read === undefined) continue;
    out ??= { ...args };
    out[key] = read;
  }
  return out;
}

/**
 * Reads, in place, every object or list argument of `result`'s calls that came as JSON text
 * (see above): the call runs with the value and goes back in history with it; noted in the
 * result's warnings.
 */
export function parseStringifiedArguments(
  result: GatewayResult,
  tools: readonly ToolDefinition[] | undefined,
): void {
  rewriteCallArguments(
    result,
    tools,
    parsedStringValues,
    (name) => `read the object or list arguments of ${name} sent as JSON text`,
  );
}
