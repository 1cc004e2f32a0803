/**
 * A tool call the provider refused to read, read here. Groq answers a call its parser could not
 * turn into `tool_calls` with 400 `tool_use_failed` and the model's output in `failed_generation`,
 * often a plain call in the model's own dialect: `<function=read={"file_path": "sample.txt"}</function>`,
 * `web_search{"query": "…"}</function>` (the opening tag lost), or a `{"tool_calls": [...]}`
 * object. A weaker model writes the same again when asked again, so every retry met the same 400
 * and the turn failed. When that output is a call to an offered tool, it is the reply.
 */

import type { RawTurn } from './finalize.js';
import type { GatewayError } from './gateway-error.js';
import { readTextToolCalls } from './text-tool-calls.js';
import { readFirstJsonValue } from './tool-arguments.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Llama's `<function=NAME…>` dialect as Groq quotes it, its opening `<function=` lost (`NAME{…}</function>`) put back. */
function asFunctionBlocks(text: string): string {
  return text.trim().replace(/^([A-Za-z_][\w.:-]*)\s*(?==?\s*\{)/, '<function=$1');
}

/** `{"tool_calls": [{function: {name, arguments}} | {name, arguments}]}` as `{name, arguments}` items. */
function toolCallsObject(text: string): string | undefined {
  const bare = text
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
    .trim();
  const read = readFirstJsonValue(bare);
  if (!read || !isObject(read.value) || !Array.isArray(read.value.tool_calls)) return undefined;
  const items = read.value.tool_calls.map((c) => (isObject(c) && isObject(c.function) ? c.function : c));
  return JSON.stringify(items);
}

/**
 * The reply `err` holds when it is a malformed-output failure whose quoted output is a call to a
 * tool in `offered` (see above), as a raw turn to finalize; undefined otherwise.
 */
export function rescuedTurn(err: GatewayError, offered: ReadonlySet<string>): RawTurn | undefined {
  const text = err.reason === 'malformed_output' ? err.failedGeneration : undefined;
  if (text === undefined || offered.size === 0) return undefined;
  const found =
    readTextToolCalls(asFunctionBlocks(text), offered) ??
    readTextToolCalls(toolCallsObject(text) ?? '', offered);
  if (!found || found.calls.length === 0) return undefined;
  return {
    text: found.rest,
    reasoning: '',
    toolCalls: found.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.arguments) })),
    finishReason: 'tool_calls',
    usage: null,
    streamed: false,
    warnings: [
      `read the tool call the provider could not (failed_generation): ${found.calls.map((c) => c.name).join(', ')}`,
    ],
    offeredTools: offered,
  };
}
