/**
 * Arguments sent as the inside of a JSON string without its quotes: `{\"date\": \"2026-05-01\"}`.
 * A relay or model layer that encodes the arguments once more as a JSON string, and a later one
 * that takes off only the outer quotes, leave every inner quote escaped
 * (https://github.com/modelscope/ms-agent/pull/652). Such text opens an object or a list whose
 * first key's quote carries a backslash, which JSON never writes there; read as the string it is
 * the inside of, it is the arguments' JSON text.
 */

/** Opens an object or list whose first quote is escaped: `{\"`, `[{\"`, `[\"`. */
const ESCAPED_OPENING = /^[[{]\s*(?:\{\s*)?\\"/;

/**
 * The JSON text `raw` holds when it is a JSON string's inside without its quotes (see above), or
 * undefined when it is not one.
 */
export function unquotedJsonString(raw: string): string | undefined {
  const text = raw.trim();
  if (!ESCAPED_OPENING.test(text)) return undefined;
  try {
    const inner: unknown = JSON.parse(`"${text}"`);
    return typeof inner === 'string' ? inner : undefined;
  } catch {
    return undefined;
  }
}
