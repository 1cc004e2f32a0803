/**
 * A call the model closed with its tag but not with its braces: `<tool_call>{"name": "terminal",
 * "arguments": {"command": "ls -la"}</tool_call>`, the outer `}` missing (Qwen 3.5, Hermes-family
 * and GLM models write so now and then; vLLM's and other servers' Hermes parsers then hand the
 * whole call over as answer text). The closing tag says the model meant the call to end there,
 * so it was not cut off by a length limit: the brackets it left open are closed for it.
 */

import { scanOutsideStrings } from './json-scan.js';

/** Most brackets a call may leave open and still be read as meant. */
const MAX_MISSING = 2;

/**
 * `body` with the brackets it leaves open closed, in order, when it opens an object (or a list,
 * when `listToo`), ends outside a string, and leaves one or two open (and never closes one it did
 * not open); else undefined.
 */
export function closeUnclosedBrackets(body: string, listToo = false): string | undefined {
  const text = body.trim();
  if (text[0] !== '{' && !(listToo && text[0] === '[')) return undefined;
  const open: string[] = [];
  let mismatched = false;
  const end = scanOutsideStrings(text, (ch, i) => {
    if (ch === '{') open.push('}');
    else if (ch === '[') open.push(']');
    else if (ch === '}' || ch === ']') {
      // a value closed before the end is followed by more: not a call left open at its end
      mismatched = open.pop() !== ch || (open.length === 0 && i < text.length - 1);
      return mismatched;
    }
  });
  if (mismatched || end.inString || open.length === 0 || open.length > MAX_MISSING) return undefined;
  return text + open.reverse().join('');
}
