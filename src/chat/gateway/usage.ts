/**
 * Normalising a provider's `usage` object (cached= and cwrite=
 * counts). Servers and the proxies in front of them count tokens under other names than
 * OpenAI's, write a count as text ("12") or leave one null; each count is read where and however
 * it was given, and a count left out is worked out from the total when the total was given.
 */
import type { GatewayUsage } from './types.js';

/** Names of the input-token count, first found wins: OpenAI's, the Responses API's, Ollama's, camelCase. */
const PROMPT_NAMES = ['prompt_tokens', 'input_tokens', 'prompt_eval_count', 'promptTokens', 'inputTokens'];
/** Names of the output-token count, likewise. */
const COMPLETION_NAMES = [
  'completion_tokens',
  'output_tokens',
  'eval_count',
  'completionTokens',
  'outputTokens',
];
/** Names of the total. */
const TOTAL_NAMES = ['total_tokens', 'totalTokens'];
/** Names of the usage counts Ollama's native API puts beside its reply rather than in a `usage` object. */
export const OLLAMA_COUNT_NAMES = ['prompt_eval_count', 'eval_count', 'prompt_eval_cached_count'];

/**
 * Usage from llama.cpp's `timings` object (`llama-server` puts it on its last chunk or beside its
 * reply, often with no `usage`): `prompt_n` counts the input tokens it evaluated, `cache_n` those
 * it reused from its cache, `predicted_n` the output tokens. The input is both together, of which
 * `cache_n` were cache hits. Null when it carries no count.
 */
export function timingsUsage(raw: unknown): GatewayUsage | null {
  const t = rec(raw);
  if (!t) return null;
  const evaluated = num(t.prompt_n);
  const cached = num(t.cache_n);
  const predicted = num(t.predicted_n);
  if (evaluated === undefined && predicted === undefined) return null;
  const wire: Record<string, unknown> = { completion_tokens: predicted };
  if (evaluated !== undefined) wire.prompt_tokens = evaluated + (cached ?? 0);
  if (cached !== undefined) wire.prompt_tokens_details = { cached_tokens: cached };
  return normalizeUsage(wire);
}

/** A number written as text, as some servers write their counts: "12", " 0.0042 ". */
const NUMBER_TEXT = /^\s*\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*$/i;

/** A non-negative count given as a number or as text holding one; undefined for null, junk or a missing one. */
function num(v: unknown): number | undefined {
  const n = typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The first count found under one of `names`. */
function firstOf(u: Record<string, unknown>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const n = num(u[name]);
    if (n !== undefined) return n;
  }
  return undefined;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** Input and output counts, one left out worked out from the total when the total was given. */
function counts(u: Record<string, unknown>): { prompt?: number; completion?: number; total?: number } {
  let prompt = firstOf(u, PROMPT_NAMES);
  let completion = firstOf(u, COMPLETION_NAMES);
  const total = firstOf(u, TOTAL_NAMES);
  if (total !== undefined && prompt !== undefined && completion === undefined && total >= prompt)
    completion = total - prompt;
  if (total !== undefined && completion !== undefined && prompt === undefined && total >= completion)
    prompt = total - completion;
  return { prompt, completion, total };
}

/**
 * Reads a wire `usage` object. Returns null when it is missing or carries no token counts
 * (usage unknown, which is not the same as zero).
 * - counts under OpenAI's names, the Responses API's (`input_tokens`), Ollama's
 *   (`prompt_eval_count`, `eval_count`) or in camelCase, first found wins; a count may be text
 *   ("12"); a null one counts as left out, and one left out beside a total is the total minus
 *   the other;
 * - cached = `prompt_tokens_details.cached_tokens` ?? DeepSeek `prompt_cache_hit_tokens` ??
 *   Anthropic-style `cache_read_input_tokens` ?? Ollama `prompt_eval_cached_count`; undefined
 *   when none is reported.
 * - cache writes = `prompt_tokens_details.cache_write_tokens` ?? `cache_creation_input_tokens`;
 *   0 for DeepSeek's shape, where a miss is ordinary input with no write fee.
 * - `prompt_tokens` already includes hits and misses: they are never added on top.
 */
export function normalizeUsage(raw: unknown): GatewayUsage | null {
  const u = rec(raw);
  if (!u) return null;
  const { prompt, completion, total } = counts(u);
  if (prompt === undefined && completion === undefined) return null;
  const details = rec(u.prompt_tokens_details) ?? rec(u.input_tokens_details);
  const cached =
    num(details?.cached_tokens) ??
    num(u.prompt_cache_hit_tokens) ??
    num(u.cache_read_input_tokens) ??
    num(u.prompt_eval_cached_count);
  const cacheWrite =
    num(details?.cache_write_tokens) ??
    num(details?.cache_creation_tokens) ??
    num(u.cache_creation_input_tokens) ??
    (num(u.prompt_cache_miss_tokens) !== undefined ? 0 : undefined);
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  const usage: GatewayUsage = {
    promptTokens,
    completionTokens,
    totalTokens: total ?? promptTokens + completionTokens,
    uncachedPromptTokens: Math.max(0, promptTokens - (cached ?? 0)),
  };
  if (cached !== undefined) usage.cachedTokens = cached;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  const cost = num(u.cost);
  if (cost !== undefined) usage.cost = cost;
  return usage;
}
