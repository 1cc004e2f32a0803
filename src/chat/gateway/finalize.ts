/**
 * The decision shared by the streamed and the buffered path: from the raw pieces of a reply
 * (text, tool-call slots, finish_reason, usage) to a GatewayResult, or a GatewayError when the
 * turn failed. Rules: tool calls without ids, finish_reason "stop" with tool calls, nameless calls and
 * trailing prose after the arguments are all read as a person would; an empty reply is a failure.
 */

import { randomBytes } from 'node:crypto';
import { clipGraphemes } from '../../common/graphemes.js';
import { contextFilled, HOSTED_CONTEXT, providerSaidContextFull } from './context-window.js';
import { canonicalFinishReason } from './finish-reason.js';
import { GatewayError } from './gateway-error.js';
import { readGrammarCalls } from './grammar-calls.js';
import { callsEndingReasoning } from './reasoning-calls.js';
import { carriesThoughtSignature } from './signed-call-ids.js';
import { offeredToolName, readTextToolCalls } from './text-tool-calls.js';
import { cutOffArguments, readToolArguments } from './tool-arguments.js';
import type { GatewayHooks, GatewayResult, GatewayToolCall, GatewayUsage } from './types.js';

/** A tool call as assembled from the wire, before validation (see call-assembler.ts). */
export interface RawToolCall {
  /** The provider's id, kept for logs only: the id we send is ours. */
  providerId?: string;
  /** Function name; calls without one are dropped. */
  name?: string;
  /** Accumulated argument text, or an object when the gateway sent one. */
  arguments: unknown;
  /** Provider fields to echo on the next request. */
  extras?: Record<string, unknown>;
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
  /** The names of the tools the request offered (to read calls written as text, and prefixed names). */
  offeredTools?: ReadonlySet<string>;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One tool-call id of ours: 9 letters and digits, the one form every known provider accepts. */
export function newToolCallId(): string {
  const bytes = randomBytes(9);
  let id = '';
  for (const b of bytes) id += ID_ALPHABET[b % ID_ALPHABET.length];
  return id;
}

/** True when `id` has the form of our tool-call ids. */
export function isOurToolCallId(id: string): boolean {
  return /^[A-Za-z0-9]{9}$/.test(id);
}

/**
 * Returns a function making tool-call ids for one reply: ours, never the provider's, because
 * providers repeat ids across round-trips, change them between fragments and use forms other
 * providers refuse. Unique within the reply; 62^9 values make a clash across replies negligible,
 * and the history check refuses one anyway.
 */
export function toolCallIdFactory(): () => string {
  const used = new Set<string>();
  return () => {
    let id = newToolCallId();
    while (used.has(id)) id = newToolCallId();
    used.add(id);
    return id;
  };
}

/**
 * Applies the turn rules to `raw` and returns the result. With `raw.offeredTools`, a call named
 * with a namespace in front of an offered tool is read as that tool, and when no call came as
 * `tool_calls`, calls to offered tools written as answer text are read as calls and taken out of
 * the text (text-tool-calls.ts). Throws GatewayError:
 * - 'failed' / 'content_filter' or 'provider_error' when finish_reason is `content_filter` or
 *   `error` (finish_reason only overrides for failures);
 * - 'failed' / 'length' when finish_reason is `length` and a tool call was assembled (its
 *   arguments may be cut off: never execute), or when the last call's arguments stop inside their
 *   JSON whatever finish_reason says;
 * - 'empty' when there is neither non-blank text nor a named tool call: reason 'length' when it
 *   stopped at the length limit, 'reasoning_length' when it did so after reasoning only,
 *   'reasoning_only' when it ended otherwise after reasoning only, 'empty' when nothing came,
 *   'context_full' (here and for a cut call) when the limit was the model's context filling up.
 * Otherwise: calls without `function.name` are dropped; every call gets a generated id, except
 * one whose provider id carries a thought signature (signed-call-ids.ts), which keeps it; arguments are read leniently;
 * any named call makes it a tool-call turn whatever finish_reason says.
 */
export function finalizeTurn(
  raw: RawTurn,
  hooks: GatewayHooks = {},
  newId: () => string = toolCallIdFactory(),
): GatewayResult {
  // text-generation-inference's calls name themselves inside their arguments (grammar-calls.ts)
  return decideTurn(readGrammarCalls(raw, hooks.onWarning), hooks, newId);
}

/** finalizeTurn once the calls are read as what they are. */
function decideTurn(raw: RawTurn, hooks: GatewayHooks, newId: () => string): GatewayResult {
  const warnings = [...raw.warnings];
  const warn = (message: string) => {
    warnings.push(message);
    hooks.onWarning?.(message);
  };
  const partialText = raw.text === '' ? undefined : raw.text;
  // another provider's spelling passed through (MAX_TOKENS, end_turn, SAFETY) means the same
  const finish = raw.finishReason === null ? null : canonicalFinishReason(raw.finishReason);

  if (finish === 'content_filter') {
    throw new GatewayError('failed', 'the provider stopped the answer (content_filter)', {
      reason: 'content_filter',
      partialText,
    });
  }
  if (finish === 'error') {
    throw new GatewayError(
      'failed',
      `the provider ended the answer with finish_reason "${raw.finishReason}"`,
      {
        reason: 'provider_error',
        retryable: true,
        partialText,
      },
    );
  }

  const offered = raw.offeredTools ?? new Set<string>();
  const calls: GatewayToolCall[] = [];
  /** A call's id: the provider's when a relay keeps the call's thought signature in it, else ours. */
  const idFor = (providerId: string | undefined): string =>
    carriesThoughtSignature(providerId) && !calls.some((c) => c.id === providerId) ? providerId : newId();
  const addCall = (name: string, rawArguments: unknown, slot: Partial<RawToolCall> = {}) => {
    const args = readToolArguments(rawArguments);
    if (args.droppedTrailing !== undefined) {
      warn(
        `dropped text after the JSON arguments of ${name}: ${JSON.stringify(clipGraphemes(args.droppedTrailing, 80))}`,
      );
    }
    const call: GatewayToolCall = {
      id: idFor(slot.providerId),
      name,
      // what we send back must be valid JSON: unreadable arguments go back as {} beside the error reply
      arguments: args.parsed === undefined ? '{}' : args.canonical,
      parsedArguments: args.parsed,
    };
    if (slot.providerId !== undefined) call.providerId = slot.providerId;
    if (slot.extras !== undefined) call.extras = slot.extras;
    if (args.error !== undefined) call.argumentsError = args.numberProblem ?? args.error;
    calls.push(call);
  };
  for (const slot of raw.toolCalls) {
    let name = typeof slot.name === 'string' ? slot.name.trim() : '';
    if (name === '') {
      warn(`dropped a tool call without a function name (id ${JSON.stringify(slot.providerId ?? '')})`);
      continue;
    }
    const meant = offered.size > 0 && !offered.has(name) ? offeredToolName(name, offered) : undefined;
    if (meant !== undefined) {
      warn(`read the tool name ${JSON.stringify(clipGraphemes(name, 80))} as ${meant}`);
      name = meant;
    }
    addCall(name, slot.arguments, slot);
  }
  let text = raw.text;
  if (calls.length === 0 && finish !== 'length') {
    // a server without a tool parser hands the model's call over as answer text
    const written = readTextToolCalls(text, offered);
    if (written) {
      warn(`read ${written.calls.length} tool call(s) the model wrote as text`);
      for (const c of written.calls) addCall(c.name, c.arguments);
      text = written.rest;
    }
  }
  let reasoning = raw.reasoning;
  if (calls.length === 0 && finish !== 'length' && text.trim() === '') {
    // a reasoning parser filed the model's call as reasoning, where the tool parser never looks
    const filed = callsEndingReasoning(reasoning, offered);
    if (filed) {
      warn(`read ${filed.calls.length} tool call(s) the server filed as reasoning`);
      for (const c of filed.calls) addCall(c.name, c.arguments);
      reasoning = filed.rest;
    }
  }

  // the last call, when its arguments stop inside their JSON, was cut off at the length limit,
  // whatever the finish reason says (DashScope reports it as "stop", routers and some DeepSeek
  // hosts as "tool_calls"); an earlier call is followed by more output, so it was not cut
  const last = raw.toolCalls[raw.toolCalls.length - 1];
  // (arguments that read as a whole value, such as Python's literals with a bracket inside a
  // quoted text, are not cut, whatever their brackets look like)
  const cut =
    last !== undefined &&
    cutOffArguments(last.arguments) &&
    readToolArguments(last.arguments).parsed === undefined
      ? last
      : undefined;
  if ((finish === 'length' && calls.length > 0) || (cut && calls.length > 0)) {
    const cutName = typeof cut?.name === 'string' ? cut.name.trim() : '';
    const name = cutName !== '' ? cutName : calls[calls.length - 1].name;
    throw new GatewayError(
      'failed',
      `the answer hit the length limit inside a call to ${name}; the call was not run`,
      {
        // the context filled up, not an output limit: asking again stops at the same place
        reason:
          finish === 'length' && contextFilled(raw.finishReason, raw.usage) !== undefined
            ? 'context_full'
            : 'length',
        partialText,
        // a hosted model's own context: no setting of the person's makes it larger
        ...(providerSaidContextFull(raw.finishReason) ? { detail: HOSTED_CONTEXT } : {}),
      },
    );
  }
  if (
    calls.length === 0 &&
    text.trim() === '' &&
    raw.warnings.some((w) => w.startsWith('ignored a non-JSON stream event'))
  ) {
    // nothing readable arrived, only events that were not chat chunks: an unreadable reply, not silence
    throw new GatewayError('parse', 'the gateway stream held no readable chat event', {
      reason: 'unreadable_stream',
    });
  }
  if (calls.length === 0 && text.trim() === '') {
    const why =
      raw.reasoning.trim() !== '' ? ' (reasoning only)' : finish === 'length' ? ' (length limit)' : '';
    // at the length limit: with reasoning, the thinking used up the reply ('reasoning_length')
    const atLimit =
      contextFilled(raw.finishReason, raw.usage) !== undefined
        ? 'context_full'
        : raw.reasoning.trim() !== ''
          ? 'reasoning_length'
          : 'length';
    // ended of its own accord with reasoning only: a server may be filing the answer as reasoning
    const ownAccord = raw.reasoning.trim() !== '' ? 'reasoning_only' : 'empty';
    throw new GatewayError('empty', `the model returned no text and no tool call${why}`, {
      reason: finish === 'length' ? atLimit : ownAccord,
      ...(atLimit === 'context_full' && providerSaidContextFull(raw.finishReason)
        ? { detail: HOSTED_CONTEXT }
        : {}),
    });
  }

  const result: GatewayResult = {
    text,
    reasoning,
    toolCalls: calls,
    finishReason: calls.length > 0 ? 'tool_calls' : finish === 'tool_calls' ? 'stop' : finish,
    rawFinishReason: raw.finishReason,
    usage: raw.usage,
    streamed: raw.streamed,
    warnings,
  };
  if (raw.model !== undefined) result.model = raw.model;
  return result;
}
