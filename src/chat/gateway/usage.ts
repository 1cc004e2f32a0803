/**
 * Normalising a provider's `usage` object (cached= and cwrite=
 * counts).
 */
import type { GatewayUsage } from './types.js';

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * Reads a wire `usage` object. Returns null when it is missing or carries no token counts
 * (usage unknown, which is not the same as zero).
 * - cached = `prompt_tokens_details.cached_tokens` ?? DeepSeek `prompt_cache_hit_tokens` ??
 *   Anthropic-style `cache_read_input_tokens`; undefined when none is reported.
 * - cache writes = `prompt_tokens_details.cache_write_tokens` ?? `cache_creation_input_tokens`;
 *   0 for DeepSeek's shape, where a miss is ordinary input with no write fee.
 * - `prompt_tokens` already includes hits and misses: they are never added on top.
 */
export function normalizeUsage(raw: unknown): GatewayUsage | null {
  const u = rec(raw);
  if (!u) return null;
  const prompt = num(u.prompt_tokens) ?? num(u.input_tokens);
  const completion = num(u.completion_tokens) ?? num(u.output_tokens);
  if (prompt === undefined && completion === undefined) return null;
  const details = rec(u.prompt_tokens_details) ?? rec(u.input_tokens_details);
  const cached =
    num(details?.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? num(u.cache_read_input_tokens);
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
    totalTokens: num(u.total_tokens) ?? promptTokens + completionTokens,
    uncachedPromptTokens: Math.max(0, promptTokens - (cached ?? 0)),
  };
  if (cached !== undefined) usage.cachedTokens = cached;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  const cost = num(u.cost);
  if (cost !== undefined) usage.cost = cost;
  return usage;
}
