/**
 * How deep a JSON body nests, checked on its bytes before it is parsed. `JSON.parse` reads a body
 * nested 100,000 levels deep, but every recursive step after it (`JSON.stringify` of a block for
 * its memo, structured clones) overflows the call stack, and the answer then showed V8's
 * "Maximum call stack size exceeded". An HAE body nests about 8 levels (data → metrics → block →
 * data → point → metadata), a workout's route a few more; MAX_JSON_DEPTH leaves ample room.
 */

/** Deepest `[`/`{` nesting accepted in a body. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `bytes` (UTF-8 JSON text, valid or not) opens more than `limit` arrays/objects inside
 * each other. Brackets inside strings are ignored (escapes honoured); one pass, no allocation,
 * stops at the first level past the limit. Multi-byte UTF-8 never contains these ASCII bytes.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}
