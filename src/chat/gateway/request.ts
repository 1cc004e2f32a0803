/**
 * Building the chat-completions request body (`model`, `messages`,
 * `tools`, `tool_choice:"auto"`; docs/CHAT-AGENT.md "Streaming" and "usage": `stream` and
 * `stream_options:{include_usage:true}`), shaped to what the provider accepts.
 */

import { alternatingRoles } from './alternating-roles.js';
import { withoutBlankAssistantTurns } from './blank-turns.js';
import { wantsCaching, withMovingMarks } from './cache-marks.js';
import { isOurToolCallId, newToolCallId } from './finalize.js';
import { checkHistory } from './history.js';
import { withoutRoutingPrefix } from './model-prefix.js';
import { carriesThoughtSignature } from './signed-call-ids.js';
import { withoutSystemTurn } from './system-turn.js';
import { readToolArguments } from './tool-arguments.js';
import { schemaInSubset } from './tool-schema-subset.js';
import type {
  ChatMessage,
  GatewayRequest,
  MessageContent,
  OtherPart,
  ProviderCapabilities,
  TextPart,
  ToolDefinition,
} from './types.js';

/**
 * Tool-call ids as sent: ours (9 letters and digits) pass unchanged, and so does a relay's id that
 * carries the call's thought signature (the relay reads it back out); any other id (one that came
 * into the history from elsewhere) is replaced, consistently for the call and its reply, by one
 * of our form, because some providers refuse every other form.
 */
function wireIds(): { of(id: string): string } {
  const map = new Map<string, string>();
  return {
    of(id: string): string {
      const key = id.trim();
      if (isOurToolCallId(key) || carriesThoughtSignature(key)) return key;
      let out = map.get(key);
      if (!out) {
        out = newToolCallId();
        map.set(key, out);
      }
      return out;
    },
  };
}

/** Arguments as sent: always a JSON object text (an object is stringified; unreadable text becomes `{}`). */
function validArguments(args: string | Record<string, unknown>): string {
  if (typeof args !== 'string') return JSON.stringify(args);
  const read = readToolArguments(args);
  return read.parsed === undefined ? '{}' : read.canonical;
}

/** The JSON body POSTed to the endpoint. */
export interface ChatCompletionBody {
  model: string;
  messages: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  tool_choice?: 'auto';
  stream: boolean;
  stream_options?: { include_usage: true };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
}

/** Joins the text parts of a content array with blank lines (the flat form for string-only providers). */
export function flattenContent(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p): p is TextPart => p.type === 'text' && typeof (p as TextPart).text === 'string')
    .map((p) => p.text)
    .join('\n\n');
}

function stripCacheControl<T extends { cache_control?: unknown }>(value: T): Omit<T, 'cache_control'> {
  const { cache_control: _dropped, ...rest } = value;
  return rest;
}

function shapeParts(content: MessageContent, cacheControl: boolean): MessageContent {
  if (typeof content === 'string') return content;
  return content.map((p) => (cacheControl ? { ...p } : (stripCacheControl(p) as TextPart | OtherPart)));
}

/**
 * Builds the body for one call. Inputs: the request, the model name, the provider's
 * capabilities. Output: a plain object ready for JSON.stringify.
 * - System content given as parts is sent as parts (with `cache_control`) only when the
 *   provider takes cache_control and does not need string content; otherwise its text parts
 *   are joined with blank lines into one string.
 * - `cache_control` is removed from every part and tool unless supported.
 * - For a model whose template has no system turn, the system text heads the first user message.
 * - For a provider that takes turns only in strict alternation, runs of one role are joined.
 * - Tool parameter schemas keep only the keywords of Gemini's subset where that is required.
 * - A streamed request goes out unstreamed to a provider that refused to stream it, and an
 *   unstreamed one streamed to a provider that answers only streamed.
 * - When the system parts go out with their marks, the newest message and the previous
 *   round-trip's newest carry one too (cache-marks.ts), within MAX_CACHE_MARKS.
 * - Assistant tool-call arguments are sent as canonical strings, never objects; an assistant
 *   message's `reasoning_details` and `thinking_blocks` go back as they came, unless the
 *   provider refused them.
 * - Every `role:tool` message carries `name`, copied from its assistant call.
 * - An assistant message with neither text nor a tool call is left out (blank-turns.ts).
 * - An assistant message without text carries `content: null`, or "" for a provider that refused null.
 * - An assistant message that called tools carries its `reasoning_content` only for a provider
 *   that needs it back.
 * - `temperature` left out for a model that refuses it; the output cap as `max_completion_tokens`
 *   for one that refuses `max_tokens`.
 * - `tools` left out for a model served without tool support, `tool_choice:"auto"` only with tools; `stream_options.include_usage` only when streaming
 *   and the provider accepts it.
 * Throws GatewayError 'failed' / 'bad_history' when the transcript is inconsistent.
 */
export function buildRequestBody(
  request: GatewayRequest,
  model: string,
  caps: ProviderCapabilities,
): ChatCompletionBody {
  const names = checkHistory(request.messages);
  const ids = wireIds();
  const sendSystemParts = caps.cacheControl && !caps.systemContentString && caps.systemRole;
  // an assistant turn with no text and no call carries nothing, and strict providers refuse it
  const messages = withoutBlankAssistantTurns(request.messages).map(
    (m: ChatMessage): Record<string, unknown> => {
      switch (m.role) {
        case 'system':
          return {
            role: 'system',
            content: sendSystemParts ? shapeParts(m.content, true) : flattenContent(m.content),
          };
        case 'user':
          return { role: 'user', content: shapeParts(m.content, caps.cacheControl) };
        case 'assistant': {
          // a message that only calls tools has no text: null as OpenAI's schema has it, "" where refused
          const content = m.content === null && !caps.assistantNullContent ? '' : m.content;
          const out: Record<string, unknown> = { role: 'assistant', content };
          if (m.tool_calls && m.tool_calls.length > 0) {
            out.tool_calls = m.tool_calls.map((tc) => ({
              ...tc.extras,
              id: ids.of(tc.id),
              type: 'function',
              function: { name: tc.function.name, arguments: validArguments(tc.function.arguments) },
            }));
          }
          // a thinking model continues its tool loop from its own reasoning: "" stands for none
          if (caps.reasoningContent && out.tool_calls) out.reasoning_content = m.reasoning_content ?? '';
          if (caps.thinkingBlocks && m.thinking_blocks && m.thinking_blocks.length > 0)
            out.thinking_blocks = m.thinking_blocks;
          if (caps.reasoningDetails && m.reasoning_details && m.reasoning_details.length > 0)
            out.reasoning_details = m.reasoning_details;
          return out;
        }
        default: {
          const out: Record<string, unknown> = {
            role: 'tool',
            tool_call_id: ids.of(m.tool_call_id),
            content: m.content,
          };
          if (caps.toolMessageName)
            out.name = m.name && m.name.trim() !== '' ? m.name : names.get(m.tool_call_id.trim());
          return out;
        }
      }
    },
  );
  const folded = caps.systemRole ? messages : withoutSystemTurn(messages);
  const placed = caps.alternatingRoles ? alternatingRoles(folded) : folded;
  const body: ChatCompletionBody = {
    model: (caps.modelPrefixDropped && withoutRoutingPrefix(model)) || model,
    messages: sendSystemParts && wantsCaching(placed) ? withMovingMarks(placed) : placed,
    // streamed when asked and allowed, or when the provider refuses to answer unstreamed
    stream: request.stream === true ? caps.streaming : !caps.unstreamed,
  };
  const tools = caps.tools ? (request.tools ?? []) : [];
  if (tools.length > 0) {
    body.tools = tools.map((t: ToolDefinition) => {
      const tool = caps.cacheControl ? { ...t } : (stripCacheControl(t) as Record<string, unknown>);
      if (!caps.toolSchemaSubset || t.function.parameters === undefined) return tool;
      const parameters = schemaInSubset(t.function.parameters);
      return { ...tool, function: { ...t.function, parameters } };
    });
    if (caps.toolChoice) body.tool_choice = 'auto';
  }
  if (body.stream && caps.streamOptions) body.stream_options = { include_usage: true };
  if (request.maxTokens !== undefined) {
    if (caps.maxCompletionTokens) body.max_completion_tokens = request.maxTokens;
    else body.max_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined && caps.temperature) body.temperature = request.temperature;
  return body;
}
