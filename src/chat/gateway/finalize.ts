/**
 * The decision shared by the streamed and the buffered path: from the raw pieces of a reply
 * (text, tool-call slots, finish_reason, usage) to a GatewayResult, or a GatewayError when the
 * turn failed. Rules: tool calls without ids, finish_reason "stop" with tool calls, nameless calls and
 * trailing prose after the arguments are all read as a person would; an empty reply is a failure.
 */
import { randomBytes } from 'node:crypto';
import { GatewayError } from './gateway-error.js';
import { readToolArguments } from './tool-arguments.js';
import type { GatewayHooks, GatewayResult, GatewayToolCall, GatewayUsage } from './types.js';

/** A tool-call slot as assembled from the wire, before validation. */
export interface RawToolCall {
  /** Provider id; '' or undefined when none came. */
  id?: string;
  /** Function name; calls without one are dropped. */
  name?: string;
  /** Accumulated argument text, or an object when the gateway sent one. */
  arguments: unknown;
}

/** Everything read from one reply, before the turn decision. */
export interface RawTurn {
  text: string;
  reasoning: string;
  toolCalls: RawToolCall[];
  finishReason: string | null;
  usage: GatewayUsage | null;
  streamed: boolean;
  warnings: string[];
  model?: string;
}

/**
 * Returns a function making unique tool-call ids `call_<12 hex>_<index>` for one reply
 * ("make a unique one, for example call_<turn>_<index>"). The random part keeps ids
 * of different round-trips of one turn apart.
 */
export function toolCallIdFactory(): (index: number) => string {
  const turn = randomBytes(6).toString('hex');
  return (index) => `call_${turn}_${index}`;
}

/**
 * Applies the turn rules to `raw` and returns the result. Throws GatewayError:
 * - 'failed' / 'content_filter' or 'provider_error' when finish_reason is `content_filter` or
 *   `error` (finish_reason only overrides for failures);
 * - 'failed' / 'length' when finish_reason is `length` and a tool call was assembled (its
 *   arguments may be cut off: never execute);
 * - 'empty' when there is neither non-blank text nor a named tool call.
 * Otherwise: calls without `function.name` are dropped; a missing, empty or
 * repeated id is replaced by a generated one; arguments are read leniently;
 * any named call makes it a tool-call turn whatever finish_reason says.
 */
export function finalizeTurn(
  raw: RawTurn,
  hooks: GatewayHooks = {},
  newId = toolCallIdFactory(),
): GatewayResult {
  const warnings = [...raw.warnings];
  const warn = (message: string) => {
    warnings.push(message);
    hooks.onWarning?.(message);
  };
  const partialText = raw.text === '' ? undefined : raw.text;
  const finish = raw.finishReason;

  if (finish === 'content_filter') {
    throw new GatewayError('failed', 'the provider stopped the answer (content_filter)', {
      reason: 'content_filter',
      partialText,
    });
  }
  if (finish === 'error') {
    throw new GatewayError('failed', 'the provider ended the answer with finish_reason "error"', {
      reason: 'provider_error',
      retryable: true,
      partialText,
    });
  }

  const calls: GatewayToolCall[] = [];
  const usedIds = new Set<string>();
  raw.toolCalls.forEach((slot, index) => {
    const name = typeof slot.name === 'string' ? slot.name.trim() : '';
    if (name === '') {
      warn(`dropped a tool call without a function name (id ${JSON.stringify(slot.id ?? '')})`);
      return;
    }
    let id = typeof slot.id === 'string' ? slot.id.trim() : '';
    if (id === '' || usedIds.has(id)) id = newId(index);
    usedIds.add(id);
    const args = readToolArguments(slot.arguments);
    if (args.droppedTrailing !== undefined) {
      warn(
        `dropped text after the JSON arguments of ${name}: ${JSON.stringify(args.droppedTrailing.slice(0, 80))}`,
      );
    }
    const call: GatewayToolCall = { id, name, arguments: args.canonical, parsedArguments: args.parsed };
    if (args.error !== undefined) call.argumentsError = args.error;
    calls.push(call);
  });

  if (finish === 'length' && calls.length > 0) {
    throw new GatewayError(
      'failed',
      'the answer hit the length limit inside a tool call; the call was not run',
      {
        reason: 'length',
        partialText,
      },
    );
  }
  if (
    calls.length === 0 &&
    raw.text.trim() === '' &&
    raw.warnings.some((w) => w.startsWith('ignored a non-JSON stream event'))
  ) {
    // nothing readable arrived, only events that were not chat chunks: an unreadable reply, not silence
    throw new GatewayError('parse', 'the gateway stream held no readable chat event', {
      reason: 'unreadable_stream',
    });
  }
  if (calls.length === 0 && raw.text.trim() === '') {
    const why =
      raw.reasoning.trim() !== '' ? ' (reasoning only)' : finish === 'length' ? ' (length limit)' : '';
    throw new GatewayError('empty', `the model returned no text and no tool call${why}`, {
      reason: finish === 'length' ? 'length' : 'empty',
    });
  }

  const result: GatewayResult = {
    text: raw.text,
    reasoning: raw.reasoning,
    toolCalls: calls,
    finishReason: calls.length > 0 ? 'tool_calls' : finish === 'tool_calls' ? 'stop' : finish,
    rawFinishReason: finish,
    usage: raw.usage,
    streamed: raw.streamed,
    warnings,
  };
  if (raw.model !== undefined) result.model = raw.model;
  return result;
}
