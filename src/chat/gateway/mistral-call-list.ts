/**
 * Mistral's `[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]` list as models write it when
 * it is not quite JSON, read where what the model meant is plain:
 * - the objects of the list written one after another without commas: Ollama's Mistral template
 *   renders the calls of earlier turns so, and the model writes its own calls the way it read them
 *   (https://github.com/unslothai/unsloth/pull/5704);
 * - the list, or the last call and the list, left open at the end: the closing `]` lost to the
 *   end-of-turn token (same thread). Only the closers after whole arguments may be missing, so a
 *   call cut off inside its arguments is never guessed at;
 * - the list closed with `[/TOOL_CALLS]` (https://github.com/ai-dynamo/dynamo/pull/10443): the end
 *   marker says the model meant the list to end there, so up to two missing closers are added
 *   (unclosed-call.ts), as for a tagged call its closing tag ends.
 */

import { valueEnd } from './json-prefix.js';
import { scanOutsideStrings } from './json-scan.js';
import { closeUnclosedBrackets } from './unclosed-call.js';

/** Mistral's closing marker after its list of calls. */
export const MISTRAL_CALLS_END = '[/TOOL_CALLS]';

/**
 * `body` (the text after `[TOOL_CALLS]`) repaired into a JSON list of calls, or undefined when it
 * is not a list or its repair would be a guess. `closedByMarker`: the list ended at
 * `[/TOOL_CALLS]`.
 */
export function repairedCallList(body: string, closedByMarker: boolean): string | undefined {
  const text = withCommasBetweenCalls(body.trim());
  if (text[0] !== '[') return undefined;
  if (valueEnd(text, 0) === text.length) return text;
  const closed = closeUnclosedBrackets(text, true);
  if (closed === undefined) return undefined;
  // without an end marker only the list's and the last call's closers may be missing
  return closedByMarker || endsAfterWholeArguments(text) ? closed : undefined;
}

/** `text` with a comma put between two objects of the top-level list that follow each other bare. */
function withCommasBetweenCalls(text: string): string {
  if (text[0] !== '[') return text;
  const at: number[] = [];
  let depth = 0;
  let lastClosedAt = -1;
  scanOutsideStrings(text, (ch, i) => {
    if (ch === '{' || ch === '[') {
      if (depth === 1 && ch === '{' && lastClosedAt >= 0 && text.slice(lastClosedAt + 1, i).trim() === '') {
        at.push(i);
      }
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      lastClosedAt = depth === 1 ? i : -1;
    } else if (!/\s/.test(ch)) lastClosedAt = -1;
    return undefined;
  });
  let out = '';
  let from = 0;
  for (const i of at) {
    out += `${text.slice(from, i)},`;
    from = i;
  }
  return out + text.slice(from);
}

/**
 * True when `text` (a list left open) ends with the `}` of a call's arguments object or of the call
 * itself: the list at depth 1, a call at 2, its arguments at 3.
 */
function endsAfterWholeArguments(text: string): boolean {
  if (!text.trimEnd().endsWith('}')) return false;
  let depth = 0;
  scanOutsideStrings(text, (ch) => {
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    return undefined;
  });
  return depth === 1 || depth === 2;
}
