/**
 * A call the model closed with its tag but not with its braces: `<tool_call>{"name": "terminal",
 * "arguments": {"command": "ls -la"}</tool_call>`, the outer `}` missing (Qwen 3.5, Hermes-family
 * and GLM models write so now and then; vLLM's and other servers' Hermes parsers then hand the
 * whole call over as answer text). The closing tag says the model meant the call to end there,
 * so it was not cut off by a length limit: the brackets it left open are closed for it.
 */

/** Most brackets a call may leave open and still be read as meant. */
const MAX_MISSING = 2;

/**
 * `body` with the brackets it leaves open closed, in order, when it opens an object, ends outside
 * a string, and leaves one or two open (and never closes one it did not open); else undefined.
 */
export function closeUnclosedBrackets(body: string): string | undefined {
  const text = body.trim();
  if (text[0] !== '{') return undefined;
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') open.push('}');
    else if (ch === '[') open.push(']');
    else if (ch === '}' || ch === ']') {
      if (open.pop() !== ch) return undefined;
      // a value closed before the end is followed by more: not a call left open at its end
      if (open.length === 0 && i < text.length - 1) return undefined;
    }
  }
  if (inString || open.length === 0 || open.length > MAX_MISSING) return undefined;
  return text + open.reverse().join('');
}
