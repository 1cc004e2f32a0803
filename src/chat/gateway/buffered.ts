/**
 * Reading a non-streaming `chat.completion` JSON body, also used when a gateway ignores
 * `stream:true` and answers with one JSON body. The body goes through the same normaliser, call
 * assembler, reasoning splitter and end-of-turn cutter as a stream, so both paths read a reply the
 * same way.
 */
import { createCallAssembler } from './call-assembler.js';
import { choicesOf, normaliseChunk } from './chunk-normaliser.js';
import { classifyErrorPayload } from './classify.js';
import { finalizeTurn, toolCallIdFactory } from './finalize.js';
import { GatewayError } from './gateway-error.js';
import { createReasoningSplitter } from './inline-reasoning.js';
import { leadingJson } from './json-prefix.js';
import { unwrapReply } from './reply-envelope.js';
import { withoutTurnEnd } from './turn-end-tokens.js';
import type { GatewayHooks, GatewayResult } from './types.js';

/** Options beyond the hooks: our id maker, and whether the model starts inside inline reasoning. */
export interface BufferedOptions {
  newId?: () => string;
  reasoningStartsInside?: boolean;
  /** Names of the tools the request offered (see finalizeTurn). */
  offeredTools?: ReadonlySet<string>;
}

/**
 * Parses one JSON reply body (text, already decoded as UTF-8) into a GatewayResult. A reply inside
 * a proxy's envelope is read from the envelope (reply-envelope.ts).
 * Throws GatewayError:
 * - 'parse' when the body is not JSON or has no `choices[].message` (nor a completions-style
 *   `choices[].text`); 'empty' when `choices` is an empty list;
 * - whatever classifyErrorPayload gives when the body is an error report (checked first): an
 *   `error`, or vLLM's bare `{object: "error"}` or FastAPI's `{detail}` sent with status 200;
 * - 'failed'/'empty' from finalizeTurn.
 * `hooks.onWarning` hears about anything tolerated.
 */
export function parseBufferedCompletion(
  bodyText: string,
  hooks: GatewayHooks = {},
  options: BufferedOptions = {},
): GatewayResult {
  let payload: unknown;
  const extraWarnings: string[] = [];
  try {
    payload = JSON.parse(bodyText);
  } catch (err) {
    // a whole reply followed by junk (a NUL, padding, a second copy): the reply is the first value
    const lead = leadingJson(bodyText);
    if (lead.values.length === 0) {
      throw new GatewayError('parse', 'the gateway reply is not valid JSON', {
        reason: 'unreadable',
        cause: err,
      });
    }
    payload = lead.values[0];
    extraWarnings.push('ignored what followed the JSON reply');
  }
  // a reply inside a proxy's envelope ({code: 0, data: {...}}, {result: {...}}) is the reply it holds
  payload = unwrapReply(payload);
  const failure = classifyErrorPayload(payload);
  if (failure) throw failure;
  const body = normaliseChunk(payload);
  const choice = body?.choices.find((c) => c.index === 0) ?? body?.choices[0];
  const raw = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const rawChoices = choicesOf(raw);
  // a completions-style choice (`text`, no message) is a reply too
  const hasMessage = (rawChoices ?? []).some(
    (c) => 'message' in c || 'delta' in c || typeof (c as { text?: unknown }).text === 'string',
  );
  if (rawChoices !== undefined && rawChoices.length === 0 && Array.isArray(raw.choices)) {
    // a reply with an empty list of choices (a proxy passing on a turn the model left empty, with
    // its usage): well-formed, and nothing in it, as a stream of no text would be
    throw new GatewayError('empty', 'the model returned no choice: no text and no tool call', {
      reason: 'empty',
    });
  }
  if (!body || !choice || !hasMessage) {
    throw new GatewayError('parse', 'the gateway reply has no choices[].message', { reason: 'no_choices' });
  }
  const calls = createCallAssembler({ offeredTools: options.offeredTools });
  // each entry of a whole message's tool_calls is a call of its own, whatever index or id it
  // repeats (servers that put one id, or index 0, on every call)
  choice.tools.forEach((f, position) => {
    calls.add({ ...f, index: position });
  });
  const splitter = createReasoningSplitter(options.reasoningStartsInside);
  const first = splitter.push(choice.text);
  const last = splitter.end();
  // an end-of-turn token the server left in the answer, and a turn the model invented after it
  const answer = withoutTurnEnd(first.answer + last.answer);
  if (answer.dropped !== undefined)
    extraWarnings.push(`dropped the end-of-turn token ${answer.dropped} the server left in the answer`);
  const result = finalizeTurn(
    {
      text: answer.text,
      reasoning: choice.reasoning + first.reasoning + last.reasoning,
      toolCalls: calls.calls(),
      // a content-filter verdict that blocked the answer or the prompt fails it, whatever finish_reason says
      finishReason:
        choice.filter === 'filtered' || body.promptFilter === 'filtered' ? 'content_filter' : choice.finish,
      usage: body.usage,
      streamed: false,
      warnings: extraWarnings,
      model: body.model,
      offeredTools: options.offeredTools,
    },
    hooks,
    options.newId ?? toolCallIdFactory(),
  );
  if (splitter.seen !== 'none') result.inlineReasoning = splitter.seen;
  if (choice.reasoningDetails.length > 0) result.reasoningDetails = choice.reasoningDetails;
  if (choice.thinkingBlocks.length > 0) result.thinkingBlocks = choice.thinkingBlocks;
  return result;
}
