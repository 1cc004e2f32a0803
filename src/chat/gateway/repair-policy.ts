/**
 * Repairing a refused request. When the gateway refuses something we sent (a field, a value, a
 * shape) and says which, whatever the status (some servers refuse with 500) and whatever the shape
 * of its error body (error-body.ts flattens it), the next attempt is built without it and the
 * provider memory learns it for this endpoint and model. Each repair is tried at most once per
 * call, so the loop is bounded by the number of repairs. A refusal no repair can answer is
 * deterministic: sending the same request again cannot succeed, so it is never retried.
 */
import { breaksAlternation } from './alternating-roles.js';
import { GatewayError } from './gateway-error.js';
import { UNKNOWN_MODEL, withoutRoutingPrefix } from './model-prefix.js';
import type { ProviderMemory } from './provider-memory.js';
import type { ChatCompletionBody } from './request.js';
import { outsideSubset } from './tool-schema-subset.js';
import { statusOf } from './transience.js';
import type { ProviderCapabilities } from './types.js';

/** What one refusal made learn: its words, and the capabilities as they were before. */
interface LearntRepair {
  text: string;
  previous: Partial<ProviderCapabilities>;
  keys: Array<keyof ProviderCapabilities>;
}

/**
 * The repairs already made during one call (their names), and what each refusal made the memory
 * learn, so a repair the server answers with the very same refusal can be taken back.
 */
export class RepairsMade extends Set<string> {
  readonly learnt: LearntRepair[] = [];
}

/** The words a refusal is read by. */
function refusalText(err: GatewayError): string {
  return `${err.detail ?? ''} ${err.message}`;
}

/** Where a learnt repair is stored: the endpoint origin and the model. */
export interface RepairTarget {
  origin: string;
  model: string;
  memory: ProviderMemory;
}

/**
 * Wording of a refusal of something sent (pydantic, OpenAI, vLLM, Mistral, LiteLLM, Bedrock ...),
 * or of a router that found no provider taking it (OpenRouter's 404 "No endpoints found that
 * support the provided 'tool_choice' value").
 */
const REFUSAL =
  /extra inputs|not permitted|unknown (?:field|parameter|argument|key|name)|unrecogni[sz]ed|unexpected|not allowed|extraneous|additional propert|not supported|unsupported|does(?: not|n't) support|invalid|must be|should be|expected|is required|missing|no (?:endpoints?|providers?) (?:were )?found (?:that|which) supports?/i;

function marked(v: unknown): boolean {
  return typeof v === 'object' && v !== null && 'cache_control' in v;
}

/** True when the built body carries `cache_control` anywhere (so stripping it can help). */
export function bodyHasCacheControl(body: ChatCompletionBody): boolean {
  return (
    body.messages.some((m) => Array.isArray(m.content) && m.content.some(marked)) ||
    (body.tools ?? []).some(marked)
  );
}

/** True when some system message went out as content parts (so flattening can help). */
export function bodyHasSystemParts(body: ChatCompletionBody): boolean {
  return body.messages.some((m) => m.role === 'system' && Array.isArray(m.content));
}

/** One repair: what it changes, when the refusal names it, and when the body had it at all. */
interface Repair {
  change: Partial<ProviderCapabilities>;
  names(text: string): boolean;
  /** True when `body` (sent as `caps` say) carries what the refusal (`text`) is about. */
  sent(body: ChatCompletionBody, text: string, caps: ProviderCapabilities | undefined): boolean;
}

/**
 * True when `body` has an assistant message with `content: null`, and, when the refusal names a
 * message by its number (`messages.1.content`, `messages[3]`), that message is one.
 */
function sentNullAssistantContent(body: ChatCompletionBody, text: string): boolean {
  const isNull = (m: Record<string, unknown> | undefined) => m?.role === 'assistant' && m.content === null;
  const named = /messages?\W{1,3}(\d+)\W/i.exec(text);
  return named ? isNull(body.messages[Number(named[1])]) : body.messages.some((m) => isNull(m));
}

/** The assistant messages of `body` that called tools. */
function toolCallers(body: ChatCompletionBody): Array<Record<string, unknown>> {
  return body.messages.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls));
}

/** Wording of a field refused for being there (pydantic's, OpenAI's, Groq's, LiteLLM's ...). */
const PRESENT_REFUSED =
  /extra inputs|not permitted|unknown (?:field|parameter|argument|key|name)|unrecogni[sz]ed|not allowed|extraneous|additional propert|not supported|unsupported/i;

/**
 * True when a refusal names the `tools` field itself as one the server does not know: Azure
 * OpenAI at an api-version older than tools ("Unrecognized request argument supplied: tools",
 * "Unrecognized request arguments supplied: tool_choice, tools", said with 400 or 404), a strict
 * server's schema ("tools: Extra inputs are not permitted", 'Unknown name "tools"'). A complaint
 * about something inside a tool definition (`tools[0].function…`, `tools.0.function…`) is not one.
 */
function namesToolsAsUnknown(t: string): boolean {
  return (
    /(?:unrecogni[sz]ed|unknown|unexpected|extra|extraneous)\b[^.;]{0,60}?(?<![\w.[])tools(?![\w.[])/i.test(
      t,
    ) ||
    /(?<![\w.[])['"`]?tools['"`]?\s*:\s*(?:extra inputs|not permitted|unknown field|unrecogni[sz]ed)/i.test(t)
  );
}

/** Wording of a refusal of turns that do not alternate between user and assistant (see alternatingRoles). */
const ALTERNATION =
  /successive (?:user|assistant)|(?:user|assistant)"?'? roles? in a row|roles? (?:must|should) (?:be )?alternat|(?:should|must) be alternating|interleave the user|alternate between (?:the )?"?user|first message must (?:use|have|be) (?:the )?"?user/i;

const REPAIRS: Record<string, Repair> = {
  systemContentString: {
    change: { systemContentString: true },
    names: (t) =>
      /content/i.test(t) && /must be (?:a )?string|expected (?:a )?string|should be (?:a )?string/i.test(t),
    sent: bodyHasSystemParts,
  },
  cacheControl: {
    change: { cacheControl: false },
    names: (t) => /cache_control/i.test(t) && REFUSAL.test(t),
    sent: bodyHasCacheControl,
  },
  streamOptions: {
    change: { streamOptions: false },
    names: (t) => /stream_options|include_usage/i.test(t) && REFUSAL.test(t),
    sent: (b) => b.stream_options !== undefined,
  },
  toolMessageName: {
    change: { toolMessageName: false },
    names: (t) =>
      REFUSAL.test(t) &&
      (/messages?\W+\d+\W+(?:tool\W+)?name\b/i.test(t) ||
        (/\bname\b/i.test(t) &&
          /\btool\b/i.test(t) &&
          !/function_response|cannot be empty|missing/i.test(t))),
    sent: (b) => b.messages.some((m) => m.role === 'tool' && typeof m.name === 'string'),
  },
  assistantNullContent: {
    // LM Studio: "'content' field must be a string or an array of objects"; Ollama: "invalid
    // message content type: <nil>"; pydantic servers: "messages.1.content: Input should be a valid string"
    change: { assistantNullContent: false },
    names: (t) =>
      /content/i.test(t) &&
      /must be (?:a )?string|expected (?:a )?string|should be a valid string|<nil>|\bnull\b|none is not an allowed/i.test(
        t,
      ),
    sent: sentNullAssistantContent,
  },
  reasoningDetails: {
    change: { reasoningDetails: false },
    names: (t) => /reasoning_details/i.test(t) && REFUSAL.test(t),
    sent: (b) => b.messages.some((m) => m.reasoning_details !== undefined),
  },
  reasoningContentNeeded: {
    // Moonshot: "thinking is enabled but reasoning_content is missing in assistant tool call
    // message at index 2"; DeepSeek: "The `reasoning_content` in the thinking mode must be passed
    // back to the API"; LiteLLM: "assistant message with tool_calls must include reasoning_content"
    change: { reasoningContent: true },
    names: (t) =>
      /reasoning_content/i.test(t) &&
      /missing|must be (?:passed|sent|given|provided|included)|must (?:include|contain|have)|required/i.test(
        t,
      ),
    sent: (b) => toolCallers(b).some((m) => m.reasoning_content === undefined),
  },
  reasoningContentRefused: {
    change: { reasoningContent: false },
    names: (t) => /reasoning_content/i.test(t) && PRESENT_REFUSED.test(t),
    sent: (b) => toolCallers(b).some((m) => m.reasoning_content !== undefined),
  },
  alternatingRoles: {
    // DeepSeek: "deepseek-reasoner does not support successive user or assistant messages";
    // Perplexity: "user and assistant roles should be alternating"; Anthropic behind proxies:
    // "roles must alternate between "user" and "assistant", but found multiple "user" roles in a
    // row", "first message must use the "user" role"; Gemini: "multiturn requests alternate
    // between user and model"; Mistral's and Llama 2's templates: "Conversation roles must alternate"
    change: { alternatingRoles: true },
    names: (t) => ALTERNATION.test(t),
    sent: (b) => breaksAlternation(b.messages),
  },
  systemRole: {
    // vLLM, SGLang, llama-cpp-python with Gemma: "System role not supported"; Mistral's older
    // templates: "Conversation roles must alternate user/assistant/..."; o1-mini:
    // "'messages[0].role' does not support 'system' with this model"; MiniMax: "chat content has
    // invalid message role: system (2013)"
    change: { systemRole: false },
    names: (t) =>
      // two turns of one role in a row are refused so too; the system message is not what they name
      !/in a row|successive|consecutive/i.test(t) &&
      /system (?:role|message|prompt)s? (?:is |are )?not (?:supported|allowed)|does(?: not|n't) support '?"?system|roles must alternate|only user and assistant roles|invalid (?:message )?role:? '?"?system/i.test(
        t,
      ),
    sent: (b) => b.messages.some((m) => m.role === 'system'),
  },
  keyInHeader: {
    // Azure OpenAI: 401 "Access denied due to invalid subscription key or wrong API endpoint";
    // Azure API Management: "Access denied due to missing subscription key"
    change: { keyInHeader: true },
    names: (t) => /subscription key/i.test(t),
    sent: (_b, _t, caps) => caps !== undefined && !caps.keyInHeader,
  },
  toolSchemaSubset: {
    // Gemini behind a relay: 'Invalid JSON payload received. Unknown name "additionalProperties"
    // at 'tools[0].function_declarations[3].parameters…': Cannot find field.'
    change: { toolSchemaSubset: true },
    names: (t) =>
      /unknown name\W+[$\w-]+\W+at\W+(?:request\.)?tools\[/i.test(t) ||
      (/function_declarations\[\d+\]/i.test(t) && REFUSAL.test(t)),
    sent: (b) =>
      (b.tools ?? []).some((t) => outsideSubset((t.function as { parameters?: unknown })?.parameters)),
  },
  streaming: {
    // OpenAI: "Your organization must be verified to stream this model" (o3, gpt-5), "Unsupported
    // value: 'stream' does not support true with this model" (o1). The word stream alone: not
    // "upstream", and not "stream_options", which is refused on its own and repaired apart
    change: { streaming: false },
    names: (t) =>
      /verified to stream\b|\b'?stream'? does not support true|\bstream(?:ing)? (?:is )?(?:not supported|unsupported|not available)|does(?: not|n't) support stream(?:ing)?\b/i.test(
        t,
      ),
    sent: (b) => b.stream,
  },
  thinkingBlocks: {
    change: { thinkingBlocks: false },
    names: (t) => /thinking_blocks/i.test(t) && REFUSAL.test(t),
    sent: (b) => b.messages.some((m) => m.thinking_blocks !== undefined),
  },
  unstreamed: {
    // DashScope, SiliconFlow: "parameter.enable_thinking must be set to false for non-streaming
    // calls" (also in Chinese: "…非流式调用"); ModelScope: "enable thinking can not be support when
    // `stream=False`"
    change: { unstreamed: false },
    names: (t) => /non-streaming calls|stream\W{0,2}=\W{0,2}false|非流式|only (?:supports? )?stream/i.test(t),
    sent: (b) => !b.stream,
  },
  temperature: {
    // OpenAI's reasoning models: "Unsupported value: 'temperature' does not support 0 with this
    // model. Only the default (1) value is supported."; "Unsupported parameter: 'temperature' is
    // not supported with this model."
    change: { temperature: false },
    names: (t) => /\btemperature\b/i.test(t) && REFUSAL.test(t),
    sent: (b) => b.temperature !== undefined,
  },
  maxCompletionTokens: {
    // "Unsupported parameter: 'max_tokens' is not supported with this model. Use
    // 'max_completion_tokens' instead."
    change: { maxCompletionTokens: true },
    names: (t) => /\bmax_tokens\b/i.test(t) && /max_completion_tokens/i.test(t),
    sent: (b) => b.max_tokens !== undefined,
  },
  toolChoice: {
    change: { toolChoice: false },
    names: (t) => /tool_choice/i.test(t) && REFUSAL.test(t),
    sent: (b) => b.tool_choice !== undefined,
  },
  modelPrefixDropped: {
    // a router's name for the model given to the provider itself (model-prefix.ts)
    change: { modelPrefixDropped: true },
    names: (t) => UNKNOWN_MODEL.test(t),
    sent: (b) => withoutRoutingPrefix(b.model) !== undefined,
  },
  tools: {
    // the model (or the server as started) cannot take tools at all: ask without them, so the
    // chat still answers in words ("if your model doesn't, the tools are simply unused")
    change: { tools: false, toolChoice: false },
    names: (t) =>
      /does(?: not|n't) support (?:tools|tool[ _]?(?:use|call(?:s|ing)?)|function[ _]?call(?:s|ing)?)/i.test(
        t,
      ) ||
      // several calls in one message refused ("Parallel tool calls are not supported") is not a
      // refusal of tools: taking them all away would leave the assistant unable to act for an hour
      /(?<!(?:parallel|multiple|several|concurrent)[ _-]?)(?:tools|tool[ _]?(?:use|call(?:s|ing)?)|function[ _]?call(?:s|ing)?) (?:is|are) not (?:supported|enabled|available)/i.test(
        t,
      ) ||
      /enable-auto-tool-choice/i.test(t) ||
      // OpenRouter, when none of the model's providers takes tools (said with 404): "No endpoints
      // found that support tool use"
      /no (?:endpoints?|providers?) (?:were )?found (?:that|which) supports? (?:tools?|tool[ _]?(?:use|call(?:s|ing)?)|function[ _]?call(?:s|ing)?)\b/i.test(
        t,
      ) ||
      // llama.cpp's server started without --jinja, with 500: "tools param requires --jinja flag"
      /requires (?:the )?--jinja/i.test(t) ||
      // MiniMax's OpenAI-compatible API, with 400: "Failed to fetch tools: Not yet implemented"
      /\btools?\b[^.;]{0,40}\bnot (?:yet )?implemented\b/i.test(t) ||
      namesToolsAsUnknown(t),
    sent: (b) => b.tools !== undefined,
  },
};

/**
 * The status a failure counts as when deciding on a repair: its status line; for an error
 * reported inside a success reply (servers that answer every request with 200, a stream that
 * can only fail in an event), the status its code names, else 500 when it says it is
 * temporary and 400 when not. So the same words repair the same request whichever way they came.
 */
function refusalStatus(err: GatewayError): number | undefined {
  if (!err.inReply) return err.upstreamStatus;
  return statusOf(err.providerCode) ?? (err.retryable ? 500 : 400);
}

/**
 * Tries to repair the refusal `err` of `body` (sent as `caps` say). Returns true when something
 * was learnt and the request should be rebuilt and sent again; false when no repair applies or
 * each that applies was tried already in this call.
 */
export function repairRefusal(
  err: GatewayError,
  body: ChatCompletionBody,
  made: RepairsMade,
  target: RepairTarget,
  caps?: ProviderCapabilities,
): boolean {
  const status = refusalStatus(err);
  if (status === undefined || status < 400) return false;
  const text = refusalText(err);
  const previous = target.memory.learned(target.origin, target.model);
  const keys: Array<keyof ProviderCapabilities> = [];
  for (const [key, repair] of Object.entries(REPAIRS)) {
    if (made.has(key) || !repair.sent(body, text, caps) || !repair.names(text)) continue;
    made.add(key);
    target.memory.learn(target.origin, target.model, repair.change);
    keys.push(...(Object.keys(repair.change) as Array<keyof ProviderCapabilities>));
  }
  if (keys.length > 0) made.learnt.push({ text, previous, keys });
  return keys.length > 0;
}

/**
 * Takes back what a refusal made the memory learn when the repaired request is refused in the very
 * same words: the repair did not help (the server's words named something else too, such as roles
 * that do not alternate for a reason other than the system message), and keeping it would change
 * every later request for nothing. Returns true when something was taken back.
 */
export function undoUnhelpfulRepairs(err: GatewayError, made: RepairsMade, target: RepairTarget): boolean {
  const text = refusalText(err);
  let undone = false;
  for (const learnt of made.learnt.filter((l) => l.text === text)) {
    const restore: Partial<ProviderCapabilities> = {};
    const drop: Array<keyof ProviderCapabilities> = [];
    for (const k of learnt.keys) {
      if (k in learnt.previous) Object.assign(restore, { [k]: learnt.previous[k] });
      else drop.push(k);
    }
    target.memory.forget(target.origin, target.model, drop);
    if (Object.keys(restore).length > 0) target.memory.learn(target.origin, target.model, restore);
    made.learnt.splice(made.learnt.indexOf(learnt), 1);
    undone = true;
  }
  return undone;
}

/**
 * True when a server error (5xx, or an error inside a success reply that names one or says it is
 * temporary) is a refusal of the request itself (it names a field, a value or a format): the
 * same request would be refused again, so it must not be retried.
 */
export function isDeterministicRefusal(err: GatewayError): boolean {
  const status = refusalStatus(err);
  if (status === undefined || status < 500) return false;
  const text = `${err.detail ?? ''} ${err.message}`;
  return /extra inputs|not permitted|unknown (?:field|parameter|argument)|unrecogni[sz]ed (?:field|request argument|parameter)|extraneous key|but must be|must be (?:a|an|one of)\b|is not a valid|invalid (?:type|value|format|field|parameter|request)|missing (?:a |required )?(?:field|parameter|thought_signature)/i.test(
    text,
  );
}

/** The same failure, no longer retryable: a refusal that a retry of the same request cannot fix. */
export function asRefusal(err: GatewayError): GatewayError {
  return new GatewayError('failed', err.message, {
    reason: 'refused',
    upstreamStatus: err.upstreamStatus,
    retryable: false,
    providerCode: err.providerCode,
    providerType: err.providerType,
    detail: err.detail,
    partialText: err.partialText,
    inReply: err.inReply,
  });
}
