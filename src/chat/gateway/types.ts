/**
 * Shapes shared by the chat-completions client: what the agent loop hands in (messages, tools,
 * config, hooks) and what it gets back (GatewayResult). Wire shapes follow the OpenAI
 * chat-completions API ("Klebb speaks the OpenAI chat-completions shape").
 */
import type { JsonShapeProblem } from '../../common/json-guard.js';

/** A prompt-cache breakpoint marker on a content part or tool (docs/CHAT-AGENT.md "Prompt caching"). */
export interface CacheControl {
  type: 'ephemeral';
}

/** One text content part; `cache_control` marks a cache breakpoint (stripped when unsupported). */
export interface TextPart {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

/** A content part of another type (image, audio ...), passed through untouched apart from `cache_control`. */
export interface OtherPart {
  type: string;
  cache_control?: CacheControl;
  [key: string]: unknown;
}

/** Message content: a flat string or ordered content parts. */
export type MessageContent = string | Array<TextPart | OtherPart>;

/**
 * A tool call as stored in the assistant history message. `arguments` should be the canonical
 * JSON string from GatewayToolCall; an object is accepted and stringified on send.
 */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string | Record<string, unknown> };
  /** Provider fields the call came with (e.g. `extra_content` holding a thought signature), echoed as given. */
  extras?: Record<string, unknown>;
}

/** A system message; array content carries the cache breakpoints. */
export interface SystemMessage {
  role: 'system';
  content: MessageContent;
}
/** A user message. */
export interface UserMessage {
  role: 'user';
  content: MessageContent;
}
/** An assistant message; `tool_calls` must be replayed with it. */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: WireToolCall[];
  /**
   * The structured reasoning items the reply came with, sent back unchanged: a reasoning model
   * that called tools continues from its own reasoning (OpenRouter asks for them back).
   */
  reasoning_details?: Array<Record<string, unknown>>;
  /**
   * The reply's reasoning text, kept on a message that called tools; sent back only to providers
   * that need it (see ProviderCapabilities.reasoningContent).
   */
  reasoning_content?: string;
  /** The reply's thinking blocks (signed), sent back unchanged: Anthropic refuses a tool loop without them. */
  thinking_blocks?: Array<Record<string, unknown>>;
}
/** A tool result; `name` is filled from the matching assistant call when absent. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  name?: string;
  content: string;
}

/** Any message of the transcript sent to the gateway. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** One tool definition in wire shape (`parameters` is a JSON Schema). */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
  cache_control?: CacheControl;
}

/** What one gateway round-trip asks for. */
export interface GatewayRequest {
  /** The transcript, oldest first. Checked for consistency before sending. */
  messages: ChatMessage[];
  /** Tools offered; `tool_choice:"auto"` is sent only when this is non-empty. */
  tools?: ToolDefinition[];
  /** Ask for SSE (`stream:true`); a gateway that answers buffered JSON anyway is tolerated. */
  stream?: boolean;
  /** Optional `max_tokens` (e.g. the title side-call). */
  maxTokens?: number;
  /** Optional `temperature`. */
  temperature?: number;
}

/** What a provider accepts; see provider-capabilities.ts for the table and the learned overrides. */
export interface ProviderCapabilities {
  /** System content must be a plain string, not content parts (Groq refuses content parts). */
  systemContentString: boolean;
  /** `cache_control` breakpoints are accepted for this provider and model. */
  cacheControl: boolean;
  /** `stream_options:{include_usage:true}` is accepted. */
  streamOptions: boolean;
  /** `name` is accepted on `role:tool` messages (some providers need it, a few refuse it). */
  toolMessageName: boolean;
  /** `tool_choice:"auto"` is accepted (it is the default, so leaving it out changes nothing). */
  toolChoice: boolean;
  /**
   * `tools` are accepted at all. A model served without tool support (Ollama answers 400 "does
   * not support tools") is asked without them: it answers in words and the tools go unused.
   */
  tools: boolean;
  /** The model opens inline reasoning in its prompt: its replies start inside reasoning until a closing tag. */
  reasoningStartsInside: boolean;
  /**
   * `reasoning_details` are accepted on assistant messages (they are sent only when the reply had
   * them; a proxy that relays them but refuses them back is asked without them).
   */
  reasoningDetails: boolean;
  /**
   * An assistant message that only calls tools may carry `content: null`, as OpenAI's schema has
   * it; servers that refuse null there (LM Studio, Ollama, strict validators) are sent "".
   */
  assistantNullContent: boolean;
  /**
   * An assistant message that called tools carries the reply's reasoning as `reasoning_content`
   * ("" when it had none). Thinking models that continue a tool loop from their own reasoning
   * (Kimi, DeepSeek) refuse the loop's next request without it; strict servers refuse the field.
   */
  reasoningContent: boolean;
  /**
   * `role: "system"` messages are accepted. Chat templates without a system turn (Gemma, Mistral's
   * older ones, o1-mini) refuse them: the system prompt then heads the first user message.
   */
  systemRole: boolean;
  /**
   * User and assistant turns go out in strict alternation (alternating-roles.ts): runs of one role
   * joined, an answer before the first question left out. DeepSeek's reasoner, Perplexity and
   * some chat templates refuse anything else.
   */
  alternatingRoles: boolean;
  /**
   * The key goes in an `api-key` header (and Azure API Management's `Ocp-Apim-Subscription-Key`)
   * instead of `Authorization: Bearer`: Azure OpenAI reads a bearer token as a Microsoft Entra
   * token and refuses a key sent so.
   */
  keyInHeader: boolean;
  /**
   * Tool parameter schemas only in the subset of JSON Schema Gemini takes (see
   * tool-schema-subset.ts): its API refuses any other keyword (`additionalProperties`, `const` …).
   */
  toolSchemaSubset: boolean;
  /**
   * Streaming is allowed. OpenAI refuses to stream some models to an organization it has not
   * verified, and some models never stream: the request is then sent unstreamed.
   */
  streaming: boolean;
  /**
   * `thinking_blocks` are accepted on assistant messages (sent only when the reply had them; a
   * server that refuses them back is asked without them).
   */
  thinkingBlocks: boolean;
  /**
   * Unstreamed requests are accepted. Qwen3 thinking models on DashScope, ModelScope and
   * SiliconFlow answer only streamed: a request that did not ask to stream is then streamed anyway.
   */
  unstreamed: boolean;
  /**
   * A `temperature` the caller asks for is sent. OpenAI's reasoning models (o1, o3, gpt-5) refuse
   * any but their own ("Only the default (1) value is supported"): it is then left out.
   */
  temperature: boolean;
  /**
   * The output cap goes as `max_completion_tokens` instead of `max_tokens`, which OpenAI's
   * reasoning models refuse ("Use 'max_completion_tokens' instead").
   */
  maxCompletionTokens: boolean;
  /**
   * The model is named without the routing prefix CHAT_MODEL carries (`openai/gpt-4o` sent as
   * `gpt-4o`): a name written for LiteLLM or another router, given to the provider itself, which
   * knows the model only by its own name (model-prefix.ts).
   */
  modelPrefixDropped: boolean;
}

/** Token usage of one round-trip, normalised across providers. */
export interface GatewayUsage {
  /** Input tokens including cached ones (`prompt_tokens`). */
  promptTokens: number;
  /** Output tokens (`completion_tokens`). */
  completionTokens: number;
  /** `total_tokens`, or prompt + completion when the gateway leaves it out. */
  totalTokens: number;
  /** Input tokens served from the prompt cache; undefined = the gateway did not report it. */
  cachedTokens?: number;
  /** Input tokens written to the prompt cache; undefined = not reported. DeepSeek: 0. */
  cacheWriteTokens?: number;
  /** promptTokens minus cachedTokens (never hit + miss on top of prompt_tokens). */
  uncachedPromptTokens: number;
  /** Cost as the gateway reports it (OpenRouter `usage.cost`), in its currency units. */
  cost?: number;
}

/** One assembled, named tool call, ready to dispatch (unless `argumentsError` is set). */
export interface GatewayToolCall {
  /** Our id for the call (9 letters and digits, see finalize.ts), used in history and the tool reply. */
  id: string;
  /** The id the provider sent, for logs only. */
  providerId?: string;
  /** Provider fields to echo on the assistant message of the next request. */
  extras?: Record<string, unknown>;
  /** Function name; calls without one are dropped. */
  name: string;
  /**
   * Canonical JSON string of the arguments: `JSON.stringify(parsedArguments)` when they parsed,
   * else `{}` (what we send back is always valid JSON; the tool reply carries the error). Never
   * double-encoded. Replay this in history.
   */
  arguments: string;
  /** The arguments object; undefined when they could not be read (then do not execute). */
  parsedArguments: Record<string, unknown> | undefined;
  /**
   * Why the arguments are unusable: a message phrased for a `role:tool` error reply, or the
   * argument holding a number JavaScript would not keep as written (path and what is wrong).
   */
  argumentsError?: string | JsonShapeProblem;
}

/** The outcome of one successful round-trip. */
export interface GatewayResult {
  /** The assistant's answer text (reasoning never included). May precede tool calls. */
  text: string;
  /** Reasoning/thinking text, kept apart from `text`; '' when none. */
  reasoning: string;
  /** Named tool calls in index order. Non-empty means a tool-call turn, whatever finish_reason says. */
  toolCalls: GatewayToolCall[];
  /**
   * Normalised finish reason: 'tool_calls' when toolCalls is non-empty, 'stop' when the gateway
   * said 'tool_calls' but no usable call remained, else the gateway's value in OpenAI's spelling
   * ('stop', 'length'...; `MAX_TOKENS` or `max_tokens` is 'length', see finish-reason.ts).
   */
  finishReason: string | null;
  /** The finish_reason exactly as the gateway sent it. */
  rawFinishReason: string | null;
  /** Usage, or null when the gateway reported none (unknown, not zero). */
  usage: GatewayUsage | null;
  /** True when the reply arrived as SSE, false when it was one JSON body. */
  streamed: boolean;
  /** Things tolerated on the way (dropped nameless calls, trailing prose after arguments ...). */
  warnings: string[];
  /** The model the gateway says answered, when it says. */
  model?: string;
  /**
   * The output cap, in tokens, Klebb set because the account's credit afforded only that much
   * (affordable-output.ts); absent when the request went without one of Klebb's.
   */
  creditCapTokens?: number;
  /** Reasoning came inline in the answer text: in tags, or after a bare closing tag. */
  inlineReasoning?: 'tagged' | 'bare';
  /** Structured reasoning items (`reasoning_details`), whole, encrypted ones included; replay them. */
  reasoningDetails?: Array<Record<string, unknown>>;
  /** Claude's thinking blocks as LiteLLM relays them (`thinking_blocks`), whole and signed; replay them. */
  thinkingBlocks?: Array<Record<string, unknown>>;
}

/** Callbacks during a call. All optional; each may be called many times. */
export interface GatewayHooks {
  /** A fragment of answer text, in order (only when the request asked to stream). */
  onToken?(text: string): void;
  /** A fragment of reasoning text, for a separate channel. */
  onReasoning?(text: string): void;
  /** Any sign of life: response headers, every received network chunk (incl. SSE comments). */
  onActivity?(): void;
  /** An SSE comment keep-alive such as "OPENROUTER PROCESSING", trimmed. */
  onKeepAlive?(comment: string): void;
  /** About to wait `waitMs` ms before retry number `attempt` (1-based) after `error`. */
  onRetry?(info: { attempt: number; waitMs: number; error: Error }): void;
  /** Something odd was tolerated (also listed in GatewayResult.warnings). */
  onWarning?(message: string): void;
  /** Answer text already passed to onToken was reasoning after all (a bare closing tag came): drop it. */
  onRetract?(): void;
}
