/**
 * Gemma 4's own tool-call markup, left as answer text by a server without the parser for it
 * (llama-cpp-python, omlx and other MLX servers, vLLM with another parser, relays;
 * https://github.com/abetlen/llama-cpp-python/issues/2227, https://github.com/microclaw/microclaw/issues/321):
 * `<|tool_call>call:NAME{key:<|"|>text<|"|>,limit:7,range:{from:<|"|>2026-05-01<|"|>}}<tool_call|>`.
 * Keys are bare, strings sit between `<|"|>` tokens, numbers, true, false and null are written as
 * they are (https://github.com/ml-explore/mlx-lm/pull/1105). Read as the JSON it means; anything
 * else written bare as a value is not guessed at.
 */
import type { TextToolCall, TextToolCalls } from './text-tool-calls.js';

/** The offered tool a written name means, or undefined (see text-tool-calls.ts). */
type NameReader = (name: string) => string | undefined;

const QUOTE = '<|"|>';
const OPEN = /<\|tool_call>\s*call:([\w.:-]+)\s*(?=\{)/g;
const CLOSE = '<tool_call|>';

/** The JSON text of Gemma's argument dict `body`, or undefined when it is not one. */
export function gemmaDictAsJson(body: string): string | undefined {
  const strings: string[] = [];
  // strings are held out under a private-use mark while the bare keys are quoted
  if (body.includes('\uE000')) return undefined;
  const parts = body.split(QUOTE);
  // an odd count of tokens leaves a string open
  if (parts.length % 2 === 0) return undefined;
  let masked = '';
  parts.forEach((part, i) => {
    if (i % 2 === 0) masked += part;
    else masked += `"\uE000${strings.push(part) - 1}\uE000"`;
  });
  // bare keys after `{` or `,` are quoted: anything up to the colon that is not already a string
  const keyed = masked.replace(
    /([{,]\s*)([^\s"{}[\],:][^"{}[\],:]*?)\s*:/g,
    (_m, lead: string, key: string) => {
      return `${lead}${JSON.stringify(key.trim())}:`;
    },
  );
  const json = keyed.replace(/"\uE000(\d+)\uE000"/g, (_m, n: string) => JSON.stringify(strings[Number(n)]));
  try {
    JSON.parse(json);
    return json;
  } catch {
    return undefined;
  }
}

/** The index just past the dict opening at `start`, its `<|"|>` strings skipped; -1 when it never closes. */
function dictEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text.startsWith(QUOTE, i)) {
      const close = text.indexOf(QUOTE, i + QUOTE.length);
      if (close < 0) return -1;
      i = close + QUOTE.length - 1;
    } else if (text[i] === '{' || text[i] === '[') depth++;
    else if (text[i] === '}' || text[i] === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Gemma 4's `<|tool_call>call:NAME{…}<tool_call|>` calls (see above). */
export function gemmaCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!text.includes('<|tool_call>')) return undefined;
  const calls: TextToolCall[] = [];
  let rest = '';
  let from = 0;
  for (const m of text.matchAll(OPEN)) {
    const start = m.index ?? 0;
    if (start < from) continue;
    const bodyStart = start + m[0].length;
    const end = dictEnd(text, bodyStart);
    const name = nameOf(m[1]);
    const json = end < 0 ? undefined : gemmaDictAsJson(text.slice(bodyStart, end));
    if (name === undefined || json === undefined) return undefined;
    const args: unknown = JSON.parse(json);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    calls.push({ name, arguments: args as Record<string, unknown> });
    rest += text.slice(from, start);
    from = text.slice(end).trimStart().startsWith(CLOSE) ? text.indexOf(CLOSE, end) + CLOSE.length : end;
  }
  rest += text.slice(from);
  return calls.length > 0 ? { calls, rest } : undefined;
}
