/**
 * Reading a non-streaming `chat.completion` JSON body, also used when a
 * gateway ignores `stream:true` and answers with one JSON body (tolerated).
 */
import { classifyErrorPayload } from './classify.js';
import { finalizeTurn, type RawToolCall, toolCallIdFactory } from './finalize.js';
import { GatewayError } from './gateway-error.js';
import { contentText, reasoningText } from './stream-assembler.js';
import type { GatewayHooks, GatewayResult } from './types.js';
import { normalizeUsage } from './usage.js';

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * Parses one JSON reply body (text, already decoded as UTF-8) into a GatewayResult.
 * Throws GatewayError:
 * - 'parse' when the body is not JSON or has no `choices[].message`;
 * - whatever classifyErrorPayload gives when the body carries an `error` (checked first);
 * - 'failed'/'empty' from finalizeTurn.
 * Tool-call `arguments` may be a string or an object; entries without a function
 * name are dropped and empty ids replaced; usage is normalised.
 * `hooks.onWarning` hears about anything tolerated.
 */
export function parseBufferedCompletion(
  bodyText: string,
  hooks: GatewayHooks = {},
  newId = toolCallIdFactory(),
): GatewayResult {
  let payload: unknown;
  try {
    payload = JSON.parse(bodyText);
  } catch (err) {
    throw new GatewayError('parse', 'the gateway reply is not valid JSON', {
      reason: 'unreadable',
      cause: err,
    });
  }
  const failure = classifyErrorPayload(payload);
  if (failure) throw failure;
  const body = rec(payload);
  const choices = Array.isArray(body?.choices) ? (body?.choices as unknown[]) : [];
  const choice =
    choices.map(rec).find((c) => c !== undefined && (c.index === 0 || c.index === undefined)) ??
    choices.map(rec).find((c) => c !== undefined);
  const message = rec(choice?.message) ?? rec(choice?.delta);
  if (!body || !choice || !message) {
    throw new GatewayError('parse', 'the gateway reply has no choices[].message', { reason: 'no_choices' });
  }
  const toolCalls: RawToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const raw of message.tool_calls) {
      const tc = rec(raw);
      if (!tc) continue;
      const fn = rec(tc.function);
      toolCalls.push({
        id: typeof tc.id === 'string' ? tc.id : undefined,
        name: typeof fn?.name === 'string' ? fn.name : undefined,
        arguments: fn?.arguments,
      });
    }
  }
  const refusal = typeof message.refusal === 'string' ? message.refusal : '';
  return finalizeTurn(
    {
      text: contentText(message.content) || refusal,
      reasoning: reasoningText(message),
      toolCalls,
      finishReason:
        typeof choice.finish_reason === 'string' && choice.finish_reason !== '' ? choice.finish_reason : null,
      usage: normalizeUsage(body.usage),
      streamed: false,
      warnings: [],
      model: typeof body.model === 'string' ? body.model : undefined,
    },
    hooks,
    newId,
  );
}
