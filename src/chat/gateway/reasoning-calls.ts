/**
 * Tool calls a server filed as reasoning. A reasoning parser puts everything before its end tag
 * into `reasoning` / `reasoning_content`, and the server's tool parser reads only the answer text:
 * so a call the model wrote before closing its reasoning (Qwen3.5 on vLLM writes its
 * `<tool_call><function=...>` block inside `<think>`), or every call of a model whose thinking is
 * turned off while the server's parser still expects it (Qwen3 with vLLM's deepseek_r1 parser and
 * enable_thinking false), arrives as reasoning, with no answer and no `tool_calls`. The model did
 * act; without this the turn ends with "No answer came back" and the tool never runs.
 *
 * Read only when the reply has nothing else (no text, no call), and only calls that end the
 * reasoning: a model that merely thinks about call syntax in the middle of its reasoning, or
 * drafts a call and thinks on, has not made it.
 */
import { readTextToolCalls, type TextToolCalls } from './text-tool-calls.js';

/**
 * The calls to offered tools that end `reasoning` (nothing but white space after them), with the
 * reasoning before them as `rest`; undefined when the reasoning holds none, or when any part of
 * what looks like one is not a call to an offered tool.
 */
export function callsEndingReasoning(
  reasoning: string,
  offered: ReadonlySet<string>,
): TextToolCalls | undefined {
  const read = readTextToolCalls(reasoning, offered);
  if (!read || read.calls.length === 0) return undefined;
  // the calls ended the reasoning when what is left is the reasoning's own beginning
  return reasoning.trim().startsWith(read.rest) ? read : undefined;
}
