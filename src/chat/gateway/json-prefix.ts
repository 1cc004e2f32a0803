/**
 * The JSON values a text starts with, for replies that carry more than one JSON value where one
 * was expected: a NUL, a stray character or a second object written straight after the first
 * (servers that flush two chunks into one event, proxies that pad a body). `JSON.parse` refuses
 * the whole; the values themselves are still whole and readable.
 */

import { scanOutsideStrings } from './json-scan.js';

/** What a text starts with: its leading objects/arrays, and what follows them (trimmed). */
export interface JsonPrefix {
  values: unknown[];
  rest: string;
}

/**
 * Reads consecutive JSON objects or arrays from the start of `text` (whitespace between them
 * allowed). Stops at the first thing that is not one; `values` is empty when the text does not
 * start with a whole object or array. Strings are scanned with their escapes, so braces inside
 * them do not count.
 */
export function leadingJson(text: string): JsonPrefix {
  const values: unknown[] = [];
  let pos = 0;
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    const end = valueEnd(text, pos);
    if (end === undefined) break;
    try {
      values.push(JSON.parse(text.slice(pos, end)));
    } catch {
      break;
    }
    pos = end;
  }
  return { values, rest: text.slice(pos).trim() };
}

/**
 * The index just past the object or array starting at `start` (a bracket scan that skips
 * brackets inside strings), or undefined when `text[start]` opens none or it never closes.
 */
export function valueEnd(text: string, start: number): number | undefined {
  const open = text[start];
  if (open !== '{' && open !== '[') return undefined;
  let depth = 0;
  const { stoppedAt } = scanOutsideStrings(
    text,
    (ch) => {
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') return --depth === 0;
    },
    start,
  );
  return stoppedAt === undefined ? undefined : stoppedAt + 1;
}
