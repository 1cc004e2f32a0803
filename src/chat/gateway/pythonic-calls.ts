/**
 * Tool calls written as a Python list of calls, the form Llama 3.2 and Llama 4 use for their own
 * tool calls (`[read_manifest(id="water"), read_rows(id='steps', limit=7)]`), left as answer text
 * by a server without the parser for it (Ollama, vLLM without `--tool-call-parser pythonic`), at
 * the end of the answer or as all of it. Keyword arguments only; each value is a Python literal
 * (strings in either quote, numbers, True / False / None, lists and dicts).
 */
import { pythonLiteralAsJson } from './python-literal.js';
import type { TextToolCall, TextToolCalls } from './text-tool-calls.js';

/** The offered tool a written name means, or undefined (see text-tool-calls.ts). */
type NameReader = (name: string) => string | undefined;

/** The index after the quoted string opening at `start` (its quote char), or -1 when it never closes. */
function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  return -1;
}

/**
 * The pieces of `text` between commas at its top level (outside strings and brackets), and the
 * index where it stops: at the first closing bracket of its own level, or its end. Undefined when
 * a string never closes.
 */
function topLevelPieces(text: string, from: number): { pieces: string[]; end: number } | undefined {
  const pieces: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      const end = quotedEnd(text, i);
      if (end < 0) return undefined;
      i = end - 1;
    } else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) {
      if (depth === 0) {
        pieces.push(text.slice(start, i));
        return { pieces, end: i };
      }
      depth--;
    } else if (ch === ',' && depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** Keyword arguments (`id="water", limit=7`) as an object, or undefined when any is not one. */
function keywordArguments(pieces: string[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const piece of pieces) {
    if (piece.trim() === '') continue;
    const m = /^\s*([A-Za-z_]\w*)\s*=\s*([\s\S]*?)\s*$/.exec(piece);
    if (!m) return undefined;
    const json = pythonLiteralAsJson(m[2]) ?? m[2];
    try {
      args[m[1]] = JSON.parse(json);
    } catch {
      return undefined;
    }
  }
  return args;
}

/** The list of calls opening at `start` (its `[`): the calls and the index after its `]`. */
function callList(
  text: string,
  start: number,
  nameOf: NameReader,
): { calls: TextToolCall[]; end: number } | undefined {
  const calls: TextToolCall[] = [];
  let i = start + 1;
  for (;;) {
    const head = /^\s*([A-Za-z_][\w.:]*)\s*\(/.exec(text.slice(i));
    const name = head ? nameOf(head[1]) : undefined;
    if (!head || name === undefined) return undefined;
    const inside = topLevelPieces(text, i + head[0].length);
    if (!inside || text[inside.end] !== ')') return undefined;
    const args = keywordArguments(inside.pieces);
    if (!args) return undefined;
    calls.push({ name, arguments: args });
    const after = /^\s*([,\]])/.exec(text.slice(inside.end + 1));
    if (!after) return undefined;
    i = inside.end + 1 + after[0].length;
    if (after[1] === ']') return { calls, end: i };
  }
}

/**
 * The pythonic call list that ends `text` (see above), every call naming an offered tool, with
 * the text before it; undefined when there is none.
 */
export function readPythonicCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(']')) return undefined;
  for (const m of trimmed.matchAll(/\[\s*[A-Za-z_][\w.:]*\s*\(/g)) {
    const list = callList(trimmed, m.index ?? 0, nameOf);
    if (list && list.end === trimmed.length)
      return { calls: list.calls, rest: trimmed.slice(0, m.index).trim() };
  }
  return undefined;
}
