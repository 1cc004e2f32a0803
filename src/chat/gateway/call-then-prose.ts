/**
 * A call a model wrote as text and then went on writing after: `[TOOL_CALLS][{...}] In order to
 * answer I need…` (https://github.com/vllm-project/vllm/pull/5649) or
 * `[TOOL_CALLS]grep[ARGS]{"pattern": "TODO"}\n\nLet me search for that.`
 * (https://github.com/ml-explore/mlx-lm/pull/1448). Mistral's format has no closing token, so
 * servers that read the whole rest as the call's JSON drop it, and the tool never runs. The JSON
 * value is whole; what follows it is prose, and stays answer text, as text around a tagged call
 * does. Text after it that goes on as JSON (a comma, a colon, a closing bracket, a quote) is not
 * prose: the value ended too early, and nothing is guessed.
 */
import { readFirstJsonValue } from './tool-arguments.js';

/** The first JSON value of `text` and the prose after it, or undefined when none is whole or JSON goes on. */
export function valueThenProse(text: string): { value: unknown; prose: string } | undefined {
  const read = readFirstJsonValue(text);
  if (!read) return undefined;
  const prose = read.rest.trim();
  if (/^[,:}\]"]/.test(prose)) return undefined;
  return { value: read.value, prose };
}
