/**
 * Assembling `chat.completion.chunk` events (the `data` of each SSE event, already split by
 * eventsource-parser) into one reply. Pure: no I/O, no timers. Rules from real gateways:
 * tool-call slots are keyed by choice and tool-call index (some omit ids); odd tool-call
 * endings are settled by finalizeTurn; a top-level `error` is checked before `choices` (errors
 * can arrive inside a 200 stream); EOF needs every choice finished, `[DONE]` is optional;
 * reasoning is not text; usage may come on any chunk, the last wins, and `choices` may be
 * empty or absent; `[DONE]` is compared after trimming (CRLF framing).
 */
import { classifyErrorPayload } from './classify.js';
import { finalizeTurn, type RawToolCall, toolCallIdFactory } from './finalize.js';
import { GatewayError } from './gateway-error.js';
import type { GatewayHooks, GatewayResult, GatewayUsage } from './types.js';
import { normalizeUsage } from './usage.js';

/** How the byte stream ended: `[DONE]` seen, clean EOF, or the connection died. */
export type StreamEnd = 'done' | 'eof' | 'reset';

/** Incremental assembler for one streamed reply. */
export interface StreamAssembler {
  /**
   * Feeds the data of one SSE event. Returns true once `data: [DONE]` has been seen (stop
   * reading). Throws GatewayError for an event carrying an `error`, or 'parse'
   * for an event that starts like JSON but is not. Non-JSON keep-alive data (e.g. a comment
   * re-wrapped as `data:`) and non-chunk objects are ignored.
   */
  push(data: string): boolean;
  /**
   * Settles the reply. Throws GatewayError 'unavailable' / 'truncated' (retryable, with the
   * partial text) when the stream ended without `[DONE]` before every choice had a
   * finish_reason; otherwise applies finalizeTurn (may throw 'failed' or 'empty').
   */
  finish(end: StreamEnd): GatewayResult;
  /** Answer text of the primary choice so far. */
  readonly text: string;
  /** True once any answer text went out through onToken (retrying would repeat it). */
  readonly emittedText: boolean;
}

interface ChoiceState {
  text: string;
  reasoning: string;
  finishReason: string | null;
  slots: Map<number, RawToolCall & { arguments: string | Record<string, unknown> }>;
  lastSlot?: number;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Text of a delta/message `content`: a string, or the `text` of its text parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => {
      const part = rec(p);
      return part && (part.type === 'text' || part.type === undefined) && typeof part.text === 'string'
        ? part.text
        : '';
    })
    .join('');
}

/** Reasoning text of a delta/message: `reasoning_content ?? reasoning`, non-empty strings only. */
export function reasoningText(delta: Record<string, unknown>): string {
  return nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning) ?? '';
}

/**
 * Creates an assembler. `hooks.onToken` gets the primary choice's text fragments in order,
 * `hooks.onReasoning` the reasoning fragments; `newId` makes ids for calls that have none.
 */
export function createStreamAssembler(
  hooks: GatewayHooks = {},
  newId = toolCallIdFactory(),
): StreamAssembler {
  const choices = new Map<number, ChoiceState>();
  let usage: GatewayUsage | null = null;
  let model: string | undefined;
  let emittedText = false;
  const warnings: string[] = [];
  let warnedJunk = false;

  const choice = (index: number): ChoiceState => {
    let c = choices.get(index);
    if (!c) {
      c = { text: '', reasoning: '', finishReason: null, slots: new Map() };
      choices.set(index, c);
    }
    return c;
  };
  const primaryText = () => choices.get(0)?.text ?? '';

  const addToolDelta = (c: ChoiceState, raw: unknown) => {
    const tc = rec(raw);
    if (!tc) return;
    const id = nonEmptyString(tc.id);
    let key: number;
    if (typeof tc.index === 'number' && Number.isInteger(tc.index)) key = tc.index;
    else if (id !== undefined) {
      // No index (some gateways send each call whole): match by id, else open the next slot.
      const known = [...c.slots.entries()].find(([, s]) => s.id === id);
      key = known ? known[0] : c.slots.size === 0 ? 0 : Math.max(...c.slots.keys()) + 1;
    } else key = c.lastSlot ?? 0; // a bare continuation fragment
    let slot = c.slots.get(key);
    if (!slot) {
      slot = { arguments: '' };
      c.slots.set(key, slot);
    }
    c.lastSlot = key;
    if (id !== undefined && !slot.id) slot.id = id;
    const fn = rec(tc.function);
    const name = nonEmptyString(fn?.name);
    if (name !== undefined && !slot.name) slot.name = name;
    const args = fn?.arguments;
    if (typeof args === 'string') {
      if (typeof slot.arguments === 'string') slot.arguments += args;
    } else if (rec(args)) slot.arguments = rec(args) as Record<string, unknown>;
  };

  return {
    get text() {
      return primaryText();
    },
    get emittedText() {
      return emittedText;
    },

    push(data: string): boolean {
      const trimmed = data.trim();
      if (trimmed === '[DONE]') return true;
      if (trimmed === '') return false;
      if (trimmed[0] !== '{' && trimmed[0] !== '[') {
        if (!warnedJunk) {
          warnedJunk = true;
          warnings.push(`ignored a non-JSON stream event: ${JSON.stringify(trimmed.slice(0, 60))}`);
        }
        return false;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(trimmed);
      } catch (err) {
        throw new GatewayError('parse', `unreadable stream event: ${JSON.stringify(trimmed.slice(0, 80))}`, {
          reason: 'unreadable',
          partialText: primaryText() || undefined,
          cause: err,
        });
      }
      const failure = classifyErrorPayload(payload, primaryText());
      if (failure) throw failure;
      const chunk = rec(payload);
      if (!chunk) return false;
      if (model === undefined && typeof chunk.model === 'string') model = chunk.model;
      if (chunk.usage !== undefined && chunk.usage !== null) {
        const u = normalizeUsage(chunk.usage);
        if (u) usage = u;
      }
      if (!Array.isArray(chunk.choices)) return false;
      for (const rawChoice of chunk.choices) {
        const ch = rec(rawChoice);
        if (!ch) continue;
        const index = typeof ch.index === 'number' ? ch.index : 0;
        const c = choice(index);
        const delta = rec(ch.delta) ?? rec(ch.message) ?? {};
        const reasoning = reasoningText(delta);
        if (reasoning !== '') {
          c.reasoning += reasoning;
          if (index === 0) hooks.onReasoning?.(reasoning);
        }
        const text = contentText(delta.content) || (nonEmptyString(delta.refusal) ?? '');
        if (text !== '') {
          c.text += text;
          if (index === 0) {
            emittedText = true;
            hooks.onToken?.(text);
          }
        }
        if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls) addToolDelta(c, tc);
        if (typeof ch.finish_reason === 'string' && ch.finish_reason !== '')
          c.finishReason = ch.finish_reason;
      }
      return false;
    },

    finish(end: StreamEnd): GatewayResult {
      const all = [...choices.values()];
      const complete = end === 'done' || (all.length > 0 && all.every((c) => c.finishReason !== null));
      if (!complete) {
        throw new GatewayError(
          'unavailable',
          end === 'reset'
            ? 'the gateway connection dropped before the answer was complete'
            : 'the gateway stream ended before the answer was complete',
          { reason: 'truncated', retryable: true, partialText: primaryText() || undefined },
        );
      }
      const primaryIndex = choices.has(0) ? 0 : Math.min(...choices.keys());
      const c = choices.get(primaryIndex) ?? {
        text: '',
        reasoning: '',
        finishReason: null,
        slots: new Map(),
      };
      const toolCalls = [...c.slots.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
      return finalizeTurn(
        {
          text: c.text,
          reasoning: c.reasoning,
          toolCalls,
          finishReason: c.finishReason,
          usage,
          streamed: true,
          warnings,
          model,
        },
        hooks,
        newId,
      );
    },
  };
}
