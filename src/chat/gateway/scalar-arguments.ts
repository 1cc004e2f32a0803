/**
 * A number, or true/false, sent as text: `{"id": "water", "limit": "5"}` (Qwen3, gpt-oss and
 * Llama through Ollama quote numbers now and then), or a text argument sent as a number
 * (`{"id": 12345}` from tool parsers that decode every value). The tool's schema refused the
 * call and the model, told so, often quoted it again. An argument the schema declares as a
 * number, an integer or a boolean, sent as text that is exactly one (`"5"`, `"2.5"`, `"true"`),
 * is read as that value; one it declares as text, sent as a number, is read as the number's
 * text. Nothing else is changed: `"5 ml"`, `""`, `"1e999"`, `"yes"` or a number of more digits
 * than a double keeps stay as sent, for the tool to refuse. Objects and lists the schema declares are looked into the same way.
 */
import { rewriteCallArguments } from './argument-rewrite.js';
import type { GatewayResult, ToolDefinition } from './types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `type` names of a schema (its `anyOf`/`oneOf` branches' too). */
function typesOf(schema: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const add = (t: unknown) => {
    if (typeof t === 'string') out.add(t);
    else if (Array.isArray(t)) for (const x of t) if (typeof x === 'string') out.add(x);
  };
  add(schema.type);
  for (const key of ['anyOf', 'oneOf'])
    if (Array.isArray(schema[key])) for (const b of schema[key]) if (isObject(b)) add(b.type);
  return out;
}

/** A number text exactly as JSON writes one, and finite. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * True when a number text has at most 15 significant digits, all a double keeps: a longer one
 * (an account number, a big id) would be stored changed, so it stays text for the tool to refuse.
 */
function keepsDigits(text: string): boolean {
  const digits = text
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return digits.length <= 15;
}

/** `value` read as the kind `schema` declares, or `value` itself (the same object when nothing changed). */
function asDeclared(value: unknown, schema: unknown): unknown {
  if (!isObject(schema)) return value;
  const types = typesOf(schema);
  if (typeof value === 'string') {
    if (types.has('string')) return value;
    const t = value.trim();
    if ((types.has('number') || types.has('integer')) && NUMBER_TEXT.test(t) && keepsDigits(t)) {
      const n = Number(t);
      if (Number.isFinite(n) && (types.has('number') || Number.isInteger(n))) return n;
    }
    if (types.has('boolean') && (t === 'true' || t === 'false')) return t === 'true';
    return value;
  }
  if (typeof value === 'number' && types.has('string') && !types.has('number') && !types.has('integer'))
    return Number.isFinite(value) ? String(value) : value;
  if (isObject(value) && isObject(schema.properties)) {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      if (!Object.hasOwn(schema.properties, k)) continue;
      const read = asDeclared(v, schema.properties[k]);
      if (read === v) continue;
      out ??= { ...value };
      out[k] = read;
    }
    return out ?? value;
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    const items = schema.items;
    const read = value.map((v) => asDeclared(v, items));
    return read.some((v, i) => v !== value[i]) ? read : value;
  }
  return value;
}

/**
 * Reads, in place, every number, boolean or text argument of `result`'s calls sent as the other
 * kind (see above): the call runs with the value its tool declares and goes back in history so;
 * noted in the result's warnings.
 */
export function readScalarArguments(
  result: GatewayResult,
  tools: readonly ToolDefinition[] | undefined,
): void {
  rewriteCallArguments(
    result,
    tools,
    (tool, args) => {
      const read = asDeclared(args, tool.function.parameters);
      return read !== args && isObject(read) ? read : undefined;
    },
    (name) => `read the arguments of ${name} as the kinds its schema declares`,
  );
}
