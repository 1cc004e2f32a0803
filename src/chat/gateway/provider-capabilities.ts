/**
 * What each provider accepts: a small built-in table, overrides from the caller's config, and
 * what the provider itself taught us (provider-memory.ts: its refusals, per endpoint and model).
 */
import type { ProviderMemory } from './provider-memory.js';
import type { ProviderCapabilities } from './types.js';

export { defaultProviderMemory, ProviderMemory } from './provider-memory.js';

/** Defaults for a gateway the table does not know: no cache_control, parts and stream_options allowed. */
export const DEFAULT_CAPABILITIES: ProviderCapabilities = {
  systemContentString: false,
  cacheControl: false,
  streamOptions: true,
  toolMessageName: true,
  toolChoice: true,
  tools: true,
  reasoningStartsInside: false,
  reasoningDetails: true,
  assistantNullContent: true,
  reasoningContent: false,
  systemRole: true,
  alternatingRoles: false,
  keyInHeader: false,
  toolSchemaSubset: false,
  streaming: true,
  thinkingBlocks: true,
  unstreamed: true,
  temperature: true,
  maxCompletionTokens: false,
  modelPrefixDropped: false,
};

interface TableRow {
  /** Matches the endpoint's host name. */
  host: RegExp;
  /** Matches the model name; omitted = every model. */
  model?: RegExp;
  caps: Partial<ProviderCapabilities>;
}

/**
 * Known providers. Groq wants string system content. cache_control is attached only
 * where a provider and model are known to take it: OpenRouter's Anthropic routes
 * (except Claude 3 Haiku/Opus/Sonnet, which refused it with tools) and Gemini routes. DeepSeek
 * and Moonshot want the reasoning back on a message that called tools (their thinking models
 * refuse the tool loop's next request without it). DeepSeek's reasoner and Perplexity take user and
 * assistant turns only in strict alternation. Azure's OpenAI hosts take the key in an
 * `api-key` header. Gemini's own hosts (the Gemini API's OpenAI-compatible path, and Gemini
 * models on Vertex AI) take tool schemas only in Gemini's subset of JSON Schema; known from the
 * first request, a fresh server is not refused once before it learns that.
 */
const TABLE: TableRow[] = [
  { host: /(^|\.)groq\.com$/i, caps: { systemContentString: true, cacheControl: false } },
  {
    host: /(^|\.)openrouter\.ai$/i,
    model: /^anthropic\/claude-(?!3-(haiku|opus|sonnet)\b)/i,
    caps: { cacheControl: true },
  },
  { host: /(^|\.)openrouter\.ai$/i, model: /^google\/gemini/i, caps: { cacheControl: true } },
  { host: /(^|\.)(deepseek\.com|moonshot\.(ai|cn))$/i, caps: { reasoningContent: true } },
  { host: /(^|\.)deepseek\.com$/i, model: /reasoner/i, caps: { alternatingRoles: true } },
  { host: /(^|\.)perplexity\.ai$/i, caps: { alternatingRoles: true } },
  {
    host: /(^|\.)(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i,
    caps: { keyInHeader: true },
  },
  { host: /^generativelanguage\.googleapis\.com$/i, caps: { toolSchemaSubset: true } },
  { host: /(^|[.-])aiplatform\.googleapis\.com$/i, model: /gemini/i, caps: { toolSchemaSubset: true } },
];

/** Looks `hostname` and `model` up in the built-in table (later rows win on conflicts). */
export function knownCapabilities(hostname: string, model: string): Partial<ProviderCapabilities> {
  const out: Partial<ProviderCapabilities> = {};
  for (const row of TABLE) {
    if (row.host.test(hostname) && (!row.model || row.model.test(model))) Object.assign(out, row.caps);
  }
  return out;
}

/**
 * The capabilities to use for one call: defaults, then the table, then the caller's
 * `overrides` (an operator who knows the gateway), then what the provider itself taught us.
 */
export function resolveCapabilities(
  url: URL,
  model: string,
  overrides: Partial<ProviderCapabilities> | undefined,
  memory: ProviderMemory,
): ProviderCapabilities {
  return {
    ...DEFAULT_CAPABILITIES,
    ...knownCapabilities(url.hostname, model),
    ...defined(overrides),
    ...defined(memory.learned(url.origin, model)),
  };
}

function defined(caps: Partial<ProviderCapabilities> | undefined): Partial<ProviderCapabilities> {
  return Object.fromEntries(Object.entries(caps ?? {}).filter(([, v]) => v !== undefined));
}
