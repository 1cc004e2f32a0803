/**
 * The one walk over JSON text that the repairs of model-written arguments share: which characters
 * lie outside strings. A bracket or a backslash inside a string is part of the string's text;
 * only outside one does it shape the value. Strings are skipped with their escapes, so `"a\"{"`
 * hides its brace.
 */

/** Where a scan stopped: the index its visitor stopped at, and whether it ended inside a string. */
export interface ScanEnd {
  /** Index of the character the visitor stopped at; undefined when it ran to the end. */
  stoppedAt: number | undefined;
  /** True when the text ended inside an unclosed string. */
  inString: boolean;
}

/**
 * Calls `visit(ch, i)` for each character of `text` from `start` on that lies outside a JSON
 * string, quotes excepted (they only open and close strings). The scan stops at the first
 * character for which `visit` returns true.
 */
export function scanOutsideStrings(
  text: string,
  visit: (ch: string, i: number) => boolean | undefined,
  start = 0,
): ScanEnd {
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (visit(ch, i) === true) return { stoppedAt: i, inString };
  }
  return { stoppedAt: undefined, inString };
}
