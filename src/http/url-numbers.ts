/**
 * Numbers and booleans written in a URL (a path parameter, a query value): the one grammar every
 * route reads them by. A URL is text, so a schema that asks for an integer there is given
 * `"25"`; it becomes 25 only when written plainly in decimal digits. JavaScript's own reading
 * (`Number`, and Ajv's `coerceTypes`, which uses it) takes far more: `" "` and a tab as 0, `0x1`,
 * `0b1`, `1e0`, `1.0`, `+1` and `00001` as 1, `-0` as 0, so a mistyped or crafted value named
 * some other row than the one meant. Anything outside the grammar stays text, and the schema
 * check refuses it naming the parameter.
 */

/** A whole number as URL text: `0`, or digits without a leading zero; no sign, space or exponent. */
export const WHOLE_NUMBER_TEXT = /^(?:0|[1-9][0-9]*)$/;

/** A signed whole number (`-3`), for a schema that allows one; `-0` is not a way to write 0. */
const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]*)$/;

/** A decimal number (`2.5`, `-0.5`): a whole part as above, then digits after one point; no -0. */
const DECIMAL_TEXT = /^(?!-0(?:\.0+)?$)-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

type Node = Record<string, unknown>;

/** The JSON types a schema node (or any branch of its union) accepts. */
function acceptedTypes(node: Node): Set<string> {
  const out = new Set<string>();
  const add = (t: unknown) => {
    if (typeof t === 'string') out.add(t);
    else if (Array.isArray(t)) for (const x of t) add(x);
  };
  add(node.type);
  for (const key of ['anyOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches))
      for (const b of branches) for (const t of acceptedTypes(b as Node)) out.add(t);
  }
  return out;
}

/** How one URL value becomes the type its schema asks for, or null when it stays text. */
function readerFor(node: Node): ((text: string) => unknown) | null {
  const types = acceptedTypes(node);
  const numeric = types.has('number') ? DECIMAL_TEXT : types.has('integer') ? INTEGER_TEXT : null;
  const boolean = types.has('boolean');
  if (!numeric && !boolean) return null;
  return (text) => {
    if (numeric?.test(text)) return Number(text);
    if (boolean && (text === 'true' || text === 'false')) return text === 'true';
    return text;
  };
}

/**
 * For a path or query schema (an object schema), a function that rewrites, in place, each value
 * whose property asks for a number or a boolean and is written in the grammar above. Null when
 * the schema has no such property (nothing to read).
 */
export function urlValueReader(schema: unknown): ((data: unknown) => void) | null {
  const properties = (schema as Node | null)?.properties;
  if (!properties || typeof properties !== 'object') return null;
  const readers = Object.entries(properties as Record<string, Node>)
    .map(([key, node]) => [key, readerFor(node)] as const)
    .filter((e): e is readonly [string, (text: string) => unknown] => e[1] !== null);
  if (readers.length === 0) return null;
  return (data) => {
    if (!data || typeof data !== 'object') return;
    const values = data as Record<string, unknown>;
    for (const [key, read] of readers) {
      const v = values[key];
      if (typeof v === 'string') values[key] = read(v);
    }
  };
}

/** What a URL value that did not read as its type must look like, for the error message. */
export function urlTypeMessage(type: unknown): string | null {
  if (type === 'integer') return 'must be a whole number written in decimal digits (like 0 or 25)';
  if (type === 'number') return 'must be a number written in decimal digits (like 2 or 2.5)';
  if (type === 'boolean') return 'must be true or false';
  return null;
}
