/**
 * One shape for whatever a gateway sends as a reply piece: a streamed `chat.completion.chunk`,
 * a buffered `chat.completion`, or a vendor variant of either. Text comes from `content` (a
 * string, a number, or text parts in the chat, Responses or Assistants shape) or `refusal`; a
 * call from `tool_calls`, from the legacy `function_call` (one call, no index or id: servers and
 * proxies still answer in the older functions shape) or from Anthropic's `tool_use` content parts
 * (proxies that translate only the text); a finish reason from `finish_reason`, or from an
 * Anthropic-style `stop_reason` passed through in its place; or, in a choice with neither `delta` nor
 * `message`, from the completions-style `text`, a `delta` or `message` sent as a plain string being
 * its content; `choices` or `tool_calls` sent as one object instead of a list is that one; Ollama's
 * native shape (a top-level `message`, no `choices`) is one choice, and so is a text-generation
 * shape (a top-level `response` text: Workers AI's `/ai/run`, Ollama's `/api/generate`); reasoning from `reasoning_content`, `reasoning`,
 * `thinking` or `reasoning` content parts (Mistral's reasoning models, gpt-oss behind some
 * endpoints) or the readable `reasoning_details` items, first found wins; usage from `usage`, a
 * vendor key holding one (`x_groq.usage`), llama.cpp's `timings`, a choice's own `usage`
 * (Moonshot) or Ollama's counts beside the reply; a tool-call fragment keeps whatever it carried (index,
 * id, name, arguments) plus any provider fields beside them, which some providers need echoed on
 * the next request (a thought signature in `extra_content`).
 */
import { canonicalFinishReason } from './finish-reason.js';
import { type ReasoningDetail, readReasoningDetails, reasoningDetailsText } from './reasoning-details.js';
import { unwrapReply } from './reply-envelope.js';
import { readThinkingBlocks, type ThinkingBlock, thinkingBlocksText } from './thinking-blocks.js';
import type { GatewayUsage } from './types.js';
import { normalizeUsage, OLLAMA_COUNT_NAMES, timingsUsage } from './usage.js';

/** One piece of a tool call, as sent; every field may be missing. */
export interface ToolFragment {
  index?: number;
  id?: string;
  name?: string;
  /** Argument text (a delta or a snapshot) or an argument object. */
  args?: string | Record<string, unknown>;
  /** Provider fields of the call other than index, id, type and function. */
  extras?: Record<string, unknown>;
}

/** One choice of a piece. */
export interface NormalChoice {
  index: number;
  text: string;
  reasoning: string;
  /** `reasoning_details` items as sent (pieces of them in a stream); [] when none. */
  reasoningDetails: ReasoningDetail[];
  /** `thinking_blocks` as sent (pieces of them in a stream); [] when none. */
  thinkingBlocks: ThinkingBlock[];
  tools: ToolFragment[];
  /**
   * Non-empty finish_reason; without one, a `stop_reason` (on the choice, or in its delta or
   * message) that is a finish word (see stopReasonAsFinish); else null.
   */
  finish: string | null;
  /**
   * True when the text came from a `message` beside no `delta`: in a stream, such a piece is
   * the whole answer so far (servers that end a stream with the full message), not a delta.
   */
  whole?: boolean;
  /**
   * The content-filter verdict the choice carries (Azure's `content_filter_results`, on the
   * choice or in its delta or message): 'filtered' when some category says `filtered: true`,
   * 'passed' when none does; undefined when it carries none.
   */
  filter?: FilterVerdict;
}

/** A content-filter verdict: the answer (or the prompt) was blocked, or checked and let through. */
export type FilterVerdict = 'passed' | 'filtered';

/** A normalised reply piece. */
export interface NormalChunk {
  model?: string;
  usage: GatewayUsage | null;
  choices: NormalChoice[];
  /** The verdict on the prompt (Azure's `prompt_filter_results`, or `prompt_annotations`), when sent. */
  promptFilter?: FilterVerdict;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Part types that carry answer text: chat's `text`, the Responses shape's `output_text`, a relayed `text_delta`. */
const TEXT_PARTS = new Set(['text', 'output_text', 'text_delta']);
/** Part types that carry reasoning: Mistral's `thinking`, `reasoning` and `reasoning_text` parts. */
const REASONING_PARTS = new Set(['thinking', 'reasoning', 'reasoning_text']);

/** The text of one part's `text`: a string, or an object holding it as `value` (Assistants-style text). */
function partText(text: unknown): string {
  if (typeof text === 'string') return text;
  const value = rec(text)?.value;
  return typeof value === 'string' ? value : '';
}

/**
 * Text of a delta/message `content`, whatever shape it came in: a string; a number (servers that
 * send a token such as `6` unquoted: a digit is text too); one part or a list of parts, each a
 * plain string or a text part (`text`, `output_text`, `text_delta`, or no type) whose `text` is a
 * string or `{value}`. Reasoning parts are never answer text.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (typeof content === 'number' && Number.isFinite(content)) return String(content);
  const parts = Array.isArray(content) ? content : rec(content) ? [content] : [];
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const part = rec(p);
    if (part && (part.type === undefined || TEXT_PARTS.has(String(part.type)))) out += partText(part.text);
  }
  return out;
}

/**
 * Text of the reasoning parts of a `content` list: `thinking` as a string or itself a list of
 * text parts (`{type:'thinking', thinking:[{type:'text', text}]}`, as Magistral sends it), or a
 * `reasoning` / `reasoning_text` part with its `text` or its `summary` (a list of summary parts).
 */
export function thinkingText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const p of content) {
    const part = rec(p);
    if (!part || !REASONING_PARTS.has(String(part.type))) continue;
    if (part.type === 'thinking')
      out += typeof part.thinking === 'string' ? part.thinking : contentText(part.thinking);
    else out += partText(part.text) || summaryText(part.summary);
  }
  return out;
}

/** The text of a reasoning part's `summary`: a string or a list of summary parts (`{type:'summary_text', text}`). */
function summaryText(summary: unknown): string {
  if (typeof summary === 'string') return summary;
  if (!Array.isArray(summary)) return '';
  return summary.map((s) => (typeof s === 'string' ? s : partText(rec(s)?.text))).join('');
}

/** A reasoning field's text: a string, or an object holding it as `text` (Bedrock's reasoning blocks relayed as is). */
function reasoningField(v: unknown): string | undefined {
  return nonEmpty(v) ?? nonEmpty(rec(v)?.text);
}

/**
 * Reasoning text of a delta/message, the first non-empty of: `reasoning_content`, `reasoning`,
 * `thinking` (Ollama's native messages) (each a string or `{text}`), the reasoning parts of `content`, the readable `reasoning_details`
 * items, the text of `thinking_blocks`.
 */
export function reasoningText(delta: Record<string, unknown>): string {
  return (
    reasoningField(delta.reasoning_content) ??
    reasoningField(delta.reasoning) ??
    reasoningField(delta.thinking) ??
    nonEmpty(thinkingText(delta.content)) ??
    nonEmpty(reasoningDetailsText(readReasoningDetails(delta.reasoning_details))) ??
    thinkingBlocksText(readThinkingBlocks(delta.thinking_blocks))
  );
}

/**
 * Usage from `usage`, else from a vendor key (`x_<vendor>: {usage}`), else from llama.cpp's
 * `timings` (see timingsUsage), else from Ollama's own counts beside the reply
 * (`prompt_eval_count`, `eval_count`: its native API, passed on by proxies); null when none.
 */
export function usageOf(payload: Record<string, unknown>): GatewayUsage | null {
  if (payload.usage !== undefined && payload.usage !== null) {
    const u = normalizeUsage(payload.usage);
    if (u) return u;
  }
  for (const [key, value] of Object.entries(payload)) {
    if (!key.startsWith('x_')) continue;
    const vendor = rec(value);
    if (vendor?.usage !== undefined) {
      const u = normalizeUsage(vendor.usage);
      if (u) return u;
    }
  }
  const timed = timingsUsage(payload.timings);
  if (timed) return timed;
  const ollama = Object.fromEntries(OLLAMA_COUNT_NAMES.map((name) => [name, payload[name]]));
  return normalizeUsage(ollama);
}

/** A null written out as text by a proxy that serialised a missing field: `"null"`, Python's `"None"`. */
const NULL_AS_TEXT = /^(?:null|none|undefined)$/i;

/**
 * A call's id or name as given: trimmed text, undefined when missing, empty, or a null written as
 * text (LiteLLM sent `"name": "null"` on every piece after the first, which read as a name would
 * start a call to a tool called "null").
 */
function given(v: unknown): string | undefined {
  const text = typeof v === 'string' ? v.trim() : undefined;
  return text === undefined || text === '' || NULL_AS_TEXT.test(text) ? undefined : text;
}

/** Where a call's arguments may be, first found wins: OpenAI's `arguments`, then other spellings servers use. */
const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input'];
/** Keys of a call entry that say what the call is; any other key is a provider field to echo. */
const KNOWN_CALL_KEYS = new Set(['index', 'id', 'type', 'function', 'tool', 'name', ...ARGUMENT_KEYS]);

/** The arguments under the first of ARGUMENT_KEYS holding text or an object, else undefined. */
function argumentsIn(o: Record<string, unknown> | undefined): string | Record<string, unknown> | undefined {
  for (const key of ARGUMENT_KEYS) {
    const v = o?.[key];
    if (typeof v === 'string') return v;
    const obj = rec(v);
    if (obj) return obj;
  }
  return undefined;
}

/**
 * One tool-call entry as a fragment; undefined when it is not an object. The name and arguments
 * are read from the `function` object, else from a `tool` object, else from the entry itself (a
 * flat `{id, name, arguments}`); `function` may also be the name alone. Arguments may be spelled
 * `arguments`, `parameters`, `args` or `input` (Anthropic's), in the inner object or beside it.
 */
export function toolFragment(raw: unknown): ToolFragment | undefined {
  const tc = rec(raw);
  if (!tc) return undefined;
  const fn = rec(tc.function) ?? rec(tc.tool);
  const out: ToolFragment = {};
  if (typeof tc.index === 'number' && Number.isInteger(tc.index)) out.index = tc.index;
  const id = given(tc.id);
  if (id !== undefined) out.id = id;
  const name = given(fn?.name) ?? given(tc.function) ?? given(tc.name);
  if (name !== undefined) out.name = name;
  const args = argumentsIn(fn) ?? argumentsIn(tc);
  if (args !== undefined) out.args = args;
  for (const [key, value] of Object.entries(tc)) {
    if (KNOWN_CALL_KEYS.has(key) || value === null || value === undefined) continue;
    out.extras ??= {};
    out.extras[key] = value;
  }
  return out;
}

/**
 * True when a content-filter report says something was blocked: an object with `filtered: true`
 * at its top or in one of its categories, at most three levels down (Azure's
 * `{hate: {filtered, severity}, custom_blocklists: {filtered, details: [{filtered, id}]}}`), or a
 * list holding such a report. A category only `detected` is not blocked.
 */
function saysFiltered(report: unknown, depth = 0): boolean {
  if (depth > 3) return false;
  if (Array.isArray(report)) return report.some((r) => saysFiltered(r, depth + 1));
  const o = rec(report);
  if (!o) return false;
  if (o.filtered === true) return true;
  return Object.values(o).some((v) => typeof v === 'object' && saysFiltered(v, depth + 1));
}

/** The verdict of the content-filter reports given (undefined ones skipped); undefined when none was given. */
function verdictOf(...reports: unknown[]): FilterVerdict | undefined {
  const given = reports.filter((r) => r !== undefined && r !== null);
  if (given.length === 0) return undefined;
  return given.some((r) => saysFiltered(r)) ? 'filtered' : 'passed';
}

/** The verdict on the prompt: each entry of `prompt_filter_results` (or `prompt_annotations`) holds a report. */
function promptVerdict(body: Record<string, unknown>): FilterVerdict | undefined {
  const entries = body.prompt_filter_results ?? body.prompt_annotations;
  if (!Array.isArray(entries)) return undefined;
  return verdictOf(...entries.map((e) => rec(e)?.content_filter_results));
}

/**
 * Normalises one parsed payload (a chunk or a whole completion, or either inside a proxy's
 * envelope, see reply-envelope.ts). Returns undefined when it is not an object. A choice reads `delta`, else `message`, else its completions-style `text`; a missing
 * `index` is 0.
 */
export function normaliseChunk(payload: unknown): NormalChunk | undefined {
  const body = rec(unwrapReply(payload));
  if (!body) return undefined;
  const out: NormalChunk = { usage: usageOf(body), choices: [] };
  if (typeof body.model === 'string') out.model = body.model;
  const prompt = promptVerdict(body);
  if (prompt !== undefined) out.promptFilter = prompt;
  for (const ch of choicesOf(body) ?? []) {
    out.choices.push(normaliseChoice(ch));
    // Moonshot (Kimi) puts the stream's usage on its last choice rather than beside the choices
    if (out.usage === null && ch.usage !== undefined && ch.usage !== null)
      out.usage = normalizeUsage(ch.usage);
  }
  return out;
}

/**
 * The choices of a payload, each an object: its `choices` list; one choice sent on its own instead
 * of in a list; or, with no `choices` at all, the one choice Ollama's native chat shape stands for
 * (a top-level `message` beside `done`, relayed by proxies as is: a piece of the answer, finished
 * with its `done_reason` once `done` is true), or the one a text-generation shape stands for (see
 * generatedChoice). undefined when the payload holds none of these.
 */
export function choicesOf(body: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const listed = body.choices;
  if (Array.isArray(listed)) return listed.map(rec).filter((c) => c !== undefined);
  const single = rec(listed);
  if (single) return [single];
  if (listed !== undefined && listed !== null) return undefined;
  const generated = generatedChoice(body);
  if (generated) return [generated];
  const message = rec(body.message);
  if (!message || (typeof body.done !== 'boolean' && typeof message.role !== 'string')) return undefined;
  const finish = body.done === true ? (nonEmpty(body.done_reason) ?? 'stop') : null;
  return [{ index: 0, delta: message, finish_reason: finish }];
}

/**
 * The one choice a text-generation shape stands for: a top-level `response` text (Cloudflare Workers
 * AI's own `/ai/run` answer, `{response, usage}` inside its `result`, or streamed as
 * `{response, p}` events; Ollama's `/api/generate`, `{response, done}`), with Workers AI's
 * `tool_calls` (`[{name, arguments}]`) beside it, finished with `done_reason` once `done` is true.
 * Undefined when the body is no such shape (a `response` that is not text is an envelope).
 */
function generatedChoice(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const text = typeof body.response === 'string' ? body.response : undefined;
  const calls = Array.isArray(body.tool_calls) && body.tool_calls.length > 0 ? body.tool_calls : undefined;
  if (text === undefined && (calls === undefined || (body.response !== null && body.response !== undefined)))
    return undefined;
  const delta: Record<string, unknown> = { content: text ?? '' };
  if (calls) delta.tool_calls = calls;
  const finish =
    body.done === true ? (nonEmpty(body.done_reason) ?? 'stop') : (nonEmpty(body.finish_reason) ?? null);
  return { index: 0, delta, finish_reason: finish };
}

/** A `delta` or `message` as an object: itself, or, sent as a plain string, a message with that content. */
function messageOf(v: unknown): Record<string, unknown> | undefined {
  return rec(v) ?? (typeof v === 'string' ? { content: v } : undefined);
}

/** The entries of `tool_calls`: the list, or one call sent on its own instead of in a list. */
function callEntries(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return rec(v) ? [v] : [];
}

/** The finish reasons a `stop_reason` may stand for, in OpenAI's words. */
const FINISH_WORDS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'error']);

/**
 * A `stop_reason` read as the finish reason, when it is a finish word in some provider's spelling
 * (Anthropic's `end_turn`, `max_tokens`, `tool_use`, passed through by proxies in place of
 * `finish_reason`); undefined otherwise. vLLM also sends a `stop_reason`, the token id or stop
 * string that ended the answer, always beside a `finish_reason`: a number or any other text is no
 * finish reason.
 */
function stopReasonAsFinish(v: unknown): string | undefined {
  const raw = nonEmpty(v);
  return raw !== undefined && FINISH_WORDS.has(canonicalFinishReason(raw)) ? raw : undefined;
}

/**
 * A router's `native_finish_reason` (the provider's own word, which OpenRouter passes beside its
 * normalised one) when it says a safety filter stopped the answer (Zhipu's `sensitive`, Gemini's
 * `SAFETY`): the normalised word may then read `stop`, and the filtered fragment would pass for
 * the whole answer. Undefined for any other native word: the normalised one stands.
 */
function filteredNativeFinish(v: unknown): string | undefined {
  const raw = nonEmpty(v);
  return raw !== undefined && canonicalFinishReason(raw) === 'content_filter' ? raw : undefined;
}

/**
 * One choice: its `delta` or `message` (an object, or a plain string standing for its content),
 * or, with neither, its completions-style `text`.
 */
function normaliseChoice(ch: Record<string, unknown>): NormalChoice {
  const index = typeof ch.index === 'number' ? ch.index : 0;
  const delta = messageOf(ch.delta) ?? messageOf(ch.message);
  const finish =
    filteredNativeFinish(ch.native_finish_reason) ??
    nonEmpty(ch.finish_reason) ??
    stopReasonAsFinish(ch.stop_reason) ??
    stopReasonAsFinish(delta?.stop_reason) ??
    null;
  const whole = messageOf(ch.delta) === undefined && delta !== undefined;
  // Azure puts its verdict on the choice, in a chunk of its own when the filter runs behind the
  // stream (often with no delta at all); relays may move it into the delta
  const filter = verdictOf(ch.content_filter_results, delta?.content_filter_results);
  if (!delta) {
    const text = typeof ch.text === 'string' ? ch.text : '';
    const bare: NormalChoice = {
      index,
      text,
      reasoning: '',
      reasoningDetails: [],
      thinkingBlocks: [],
      tools: [],
      finish,
    };
    if (filter !== undefined) bare.filter = filter;
    return bare;
  }
  const tools: ToolFragment[] = [];
  for (const raw of callEntries(delta.tool_calls)) {
    const f = toolFragment(raw);
    if (f) tools.push(f);
  }
  const legacy = rec(delta.function_call);
  if (legacy && tools.length === 0) {
    // the older functions shape: one call whose pieces carry neither index nor id
    const f = toolFragment({ function: legacy });
    if (f) tools.push(f);
  }
  if (tools.length === 0) {
    // Anthropic's `tool_use` blocks left among the content parts by a proxy that translated
    // only the text: each is a call ({id, name, input})
    for (const part of Array.isArray(delta.content) ? delta.content : []) {
      const f = rec(part)?.type === 'tool_use' ? toolFragment(part) : undefined;
      if (f) tools.push(f);
    }
  }
  return {
    index,
    text: contentText(delta.content) || (nonEmpty(delta.refusal) ?? ''),
    reasoning: reasoningText(delta),
    reasoningDetails: readReasoningDetails(delta.reasoning_details),
    thinkingBlocks: readThinkingBlocks(delta.thinking_blocks),
    tools,
    finish,
    whole,
    ...(filter !== undefined ? { filter } : {}),
  };
}
