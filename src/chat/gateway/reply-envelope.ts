/**
 * Replies inside another document. Proxies and cloud gateways wrap the chat completion (or each
 * streamed chunk) in an envelope of their own: `{code: 0, msg: "success", data: {...}}` (many
 * Chinese cloud gateways and relays), `{result: {...}, success: true, errors: [], messages: []}`
 * (Cloudflare), `{response: {...}}`, `{output: {...}, usage}` (DashScope-style, with the usage
 * outside). The reply is what the envelope holds, so it is read from there; the envelope's own
 * fields say nothing about the answer. A reply may also come encoded once more as a JSON string
 * (`"{\"id\":...}"`, as a body or as an event's data): a server that serialised the reply and
 * handed the text to a framework that serialised it again. The text is the reply.
 */

import { blankError } from './blank-error.js';

/** Keys under which an envelope holds the reply, tried in this order. */
const ENVELOPE_KEYS = ['data', 'result', 'response', 'output'];
/** Envelopes inside envelopes are followed this deep, no deeper. */
const MAX_DEPTH = 4;

/**
 * The value a string holds when it is JSON text of an object or an array, decoded through every
 * layer of encoding (a string of a string of an object); undefined for any other value or text.
 */
export function jsonTextValue(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  let current: unknown = v;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'string'; depth++) {
    const t = current.trim();
    if (t[0] !== '{' && t[0] !== '[' && t[0] !== '"') return undefined;
    try {
      current = JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  return typeof current === 'object' && current !== null ? current : undefined;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * True when `v` is a chat reply, a chunk of one (the closing usage chunk included), or an error
 * report: it has `choices`, an `object` naming a chat completion, a `usage` object, Ollama's native
 * `message` beside `done`, a `response` text or `tool_calls` list, or an `error`.
 */
function isReplyLike(v: Record<string, unknown>): boolean {
  if (v.choices !== undefined && v.choices !== null) return true;
  if (typeof v.object === 'string' && v.object.startsWith('chat.completion')) return true;
  if (rec(v.usage) || (rec(v.message) && typeof v.done === 'boolean')) return true;
  // a text-generation answer (Workers AI's `/ai/run`: `{response, tool_calls}`)
  if (typeof v.response === 'string' || (Array.isArray(v.tool_calls) && v.tool_calls.length > 0)) return true;
  return !blankError(v.error);
}

/**
 * What an envelope holds (a reply, or an envelope that holds one, up to `depth` deep), or
 * undefined when `body` is no envelope around a reply.
 */
function heldReply(body: Record<string, unknown>, depth = MAX_DEPTH): Record<string, unknown> | undefined {
  if ((body.choices !== undefined && body.choices !== null) || depth === 0) return undefined;
  for (const key of ENVELOPE_KEYS) {
    const inner = rec(body[key]) ?? rec(jsonTextValue(body[key]));
    if (inner && (isReplyLike(inner) || heldReply(inner, depth - 1) !== undefined)) return inner;
  }
  return undefined;
}

/**
 * The reply a parsed payload stands for: the payload itself; the document it holds when it is
 * JSON text (a reply encoded twice); or, when it is an envelope (see the top of this file), the
 * reply it holds, followed through nested envelopes. Usage the envelope carries beside the reply
 * is kept when the reply has none of its own. A payload with `choices` is always the reply itself.
 */
export function unwrapReply(payload: unknown): unknown {
  let current = jsonTextValue(payload) ?? payload;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const body = rec(current);
    if (!body) return current;
    const inner = heldReply(body);
    if (!inner) return current;
    current = inner.usage === undefined && body.usage !== undefined ? { ...inner, usage: body.usage } : inner;
  }
  return current;
}
